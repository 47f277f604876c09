// The profile page's "Notify me on this device" switch (webpush/templates/webpush/_device.html):
// registers the service worker (/sw.js), asks for permission, subscribes with the site's VAPID
// public key and sends the subscription to the server, or undoes all that. Without JavaScript,
// or in a browser without push, the button stays hidden and the status says why.
(function () {
  "use strict";

  function keyBytes(base64url) {
    var base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(base64 + "===".slice((base64.length + 3) % 4));
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function sameKey(buffer, bytes) {
    if (!buffer) return false;
    var other = new Uint8Array(buffer);
    if (other.length !== bytes.length) return false;
    for (var i = 0; i < bytes.length; i++) if (other[i] !== bytes[i]) return false;
    return true;
  }

  function setUp(form) {
    var button = form.querySelector(".push-toggle");
    var status = form.querySelector(".push-status");
    var token = form.querySelector("input[name=csrfmiddlewaretoken]").value;
    var publicKey = keyBytes(form.dataset.publicKey);
    var registration = null;

    function show(state, detail) {
      form.dataset.state = state;
      status.textContent = form.dataset["state" + state.charAt(0).toUpperCase() + state.slice(1)] +
        (detail ? " " + detail : "");
      button.hidden = state === "unsupported" || state === "denied";
      button.disabled = state === "working";
      button.textContent = state === "on" ? form.dataset.turnOff : form.dataset.turnOn;
    }

    function post(url, body) {
      return fetch(url, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": token },
        body: JSON.stringify(body),
      }).then(function (response) {
        if (response.ok) return response.json();
        return response.json().then(
          function (answer) { throw new Error(answer.error || response.statusText); },
          function () { throw new Error(response.statusText); }
        );
      });
    }

    function turnOn() {
      return Notification.requestPermission().then(function (permission) {
        if (permission !== "granted") {
          show(permission === "denied" ? "denied" : "off");
          return;
        }
        return registration.pushManager.getSubscription().then(function (existing) {
          // A subscription made with other keys (the site changed them) cannot be reused.
          if (existing && !sameKey(existing.options.applicationServerKey, publicKey)) {
            return existing.unsubscribe().then(function () { return null; });
          }
          return existing;
        }).then(function (existing) {
          return existing || registration.pushManager.subscribe({
            userVisibleOnly: true,
            applicationServerKey: publicKey,
          });
        }).then(function (subscription) {
          return post(form.action, subscription.toJSON());
        }).then(function () { show("on"); });
      });
    }

    function turnOff() {
      return registration.pushManager.getSubscription().then(function (subscription) {
        if (!subscription) return null;
        var endpoint = subscription.endpoint;
        return subscription.unsubscribe().then(function () {
          return post(form.dataset.unsubscribe, { endpoint: endpoint });
        });
      }).then(function () { show("off"); });
    }

    button.addEventListener("click", function () {
      var wasOn = form.dataset.state === "on";
      show("working");
      (wasOn ? turnOff() : turnOn()).catch(function (error) {
        show(wasOn ? "on" : "off");
        status.textContent = form.dataset.stateFailed + " " + error.message;
      });
    });

    if (!("serviceWorker" in navigator) || !("PushManager" in window) ||
        !("Notification" in window) || !window.isSecureContext) {
      show("unsupported");
      return;
    }
    if (Notification.permission === "denied") {
      show("denied");
      return;
    }
    show("working");
    navigator.serviceWorker.register(form.dataset.serviceWorker, { scope: "/" }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (ready) {
      registration = ready;
      return registration.pushManager.getSubscription();
    }).then(function (subscription) {
      // On only when this browser is subscribed and the permission still stands; the server
      // is told again, so a subscription it dropped (or another account's) is this player's.
      if (subscription && Notification.permission === "granted") {
        return post(form.action, subscription.toJSON()).then(function () { show("on"); });
      }
      show("off");
    }).catch(function (error) {
      show("off");
      status.textContent = form.dataset.stateFailed + " " + error.message;
    });
  }

  document.querySelectorAll("form.push-device").forEach(setUp);
})();
