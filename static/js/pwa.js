// Every page registers the service worker (/sw.js: push notices and the offline page), which is
// what lets browsers install the site as an app. Browsers without service workers lose nothing.
(function () {
  "use strict";
  var script = document.currentScript;
  if (!("serviceWorker" in navigator) || !script) return;
  navigator.serviceWorker.register(script.dataset.serviceWorker, { scope: "/" }).catch(function () {
    // Refused (e.g. plain http on another host than localhost): the site works without it.
  });
})();
