// The service worker, served from the site's root by webpush.views.service_worker, which puts
// CONFIG (the offline page's and icon's URLs) before this text. It does three things only:
// show push notices, open their page when clicked, and show the offline page when a page cannot
// be reached. Nothing else is cached: boards are live and must come from the server.
"use strict";

var CACHE = "biblios-offline-v1";

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE).then(function (cache) {
      var urls = [CONFIG.offline].concat(CONFIG.offlineAssets);
      return cache.addAll(urls.map(function (url) { return new Request(url, { cache: "reload" }); }));
    }).then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) { return name !== CACHE; })
        .map(function (name) { return caches.delete(name); }));
    })
  );
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(function () {
      return caches.match(CONFIG.offline);
    }));
  } else if (CONFIG.offlineAssets.indexOf(new URL(request.url).pathname) !== -1) {
    // The offline page's stylesheet and icon: from the network while there is one.
    event.respondWith(fetch(request).catch(function () { return caches.match(request); }));
  }
});

self.addEventListener("push", function (event) {
  var notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch (error) {
    notice = { body: event.data.text() };
  }
  event.waitUntil(self.registration.showNotification(notice.title || "Biblios Online", {
    body: notice.body || "",
    // The same tag replaces the notice shown before (a resent message never shows twice).
    tag: notice.tag || undefined,
    icon: CONFIG.icon,
    data: { url: notice.url || "/" },
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  // Only ever a page of this site: the path of the link, on the worker's own origin (so a
  // SITE_URL that names another host of the same site still leads here).
  var link = new URL((event.notification.data && event.notification.data.url) || "/",
    self.location.origin);
  var url = new URL(link.pathname + link.search + link.hash, self.location.origin);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
      for (var i = 0; i < windows.length; i++) {
        if (windows[i].url === url.href && "focus" in windows[i]) return windows[i].focus();
      }
      return self.clients.openWindow(url.href);
    })
  );
});
