// Every page registers the service worker (/sw.js: push notices and the offline page), which is
// what lets browsers install the site as an app. Browsers without service workers lose nothing.
(function () {
  "use strict";
  var script = document.currentScript;
  if (!("serviceWorker" in navigator) || !script) return;
  var unsubscribeUrl = script.dataset.unsubscribe;
  navigator.serviceWorker.register(script.dataset.serviceWorker, { scope: "/" }).catch(function () {
    // Refused (e.g. plain http on another host than localhost): the site works without it.
  });

  // Logging out turns this device's notices off: the server forgets its subscription and the
  // browser drops it, so the next person at a shared computer sees nothing of the last one's
  // games. (The server also forgets what this session subscribed, webpush/apps.py, for a logout
  // without this script.) Whatever happens meanwhile, the logout goes on within a second.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches("form.logout") || form.dataset.pushDropped) return;
    event.preventDefault();
    form.dataset.pushDropped = "1";
    var token = form.querySelector("input[name=csrfmiddlewaretoken]").value;
    var dropped = navigator.serviceWorker.getRegistration("/").then(function (registration) {
      return registration && registration.pushManager.getSubscription();
    }).then(function (subscription) {
      if (!subscription) return null;
      return fetch(unsubscribeUrl, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": token },
        body: JSON.stringify({ endpoint: subscription.endpoint }),
      }).then(function () { return subscription.unsubscribe(); });
    });
    var late = new Promise(function (resolve) { setTimeout(resolve, 1000); });
    Promise.race([dropped, late]).catch(function () {}).then(function () { form.submit(); });
  });
})();
