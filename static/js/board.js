/* The game page's small comforts, all optional: the page works without them.
 *
 * After every board update (an htmx answer to a move, or a live WebSocket push) this script
 * - puts "Your turn" in the tab title while a decision of mine is awaited,
 * - beeps once when my turn starts, if I switched the sound on (off by default, remembered
 *   in localStorage),
 * - copies the newest log line into the page's polite live region for screen readers,
 * - gives focus back to the control I was on (or to my next decision) when the swap removed it,
 * - marks cards that just arrived so CSS can ease them in,
 * - tells the server, with each move, when this page's socket is open: the socket's push then
 *   brings the new board and the move's answer is an empty 204 (games/views.py `act`), so the
 *   board is drawn once per move; with the socket closed, the answer is the board.
 */
(function () {
  "use strict";

  var SOUND_KEY = "biblios.turnSound";
  var CARD_SELECTOR = ["#board-public", "#board-hand", "#board-auction", "#board-my-auction-cards"]
    .map(function (area) {
      return area + " [data-card]";
    })
    .join(", ");
  var live = document.getElementById("game-live");
  if (!live) return;

  var baseTitle = document.title;
  var turnTitle = live.dataset.turnTitle || "Your turn";
  var announcer = document.getElementById("move-announcer");
  var soundToggle = document.getElementById("turn-sound");
  var audio = null;
  var wasMyTurn = isMyTurn();
  var lastAnnounced = logVersion();
  var pending = null; // what the page looked like before the current batch of swaps

  function isMyTurn() {
    var banner = document.getElementById("board-banner");
    return !!banner && banner.dataset.mine === "1";
  }

  function logVersion() {
    var log = document.getElementById("board-log");
    return log ? log.dataset.version : "";
  }

  function newestLine() {
    var line = document.querySelector("#board-log [data-announce]");
    // One line of speech: the card chips inside a log line carry template whitespace.
    return line ? line.textContent.replace(/\s+/g, " ").trim() : "";
  }

  function soundOn() {
    try {
      return window.localStorage.getItem(SOUND_KEY) === "on";
    } catch (e) {
      return false;
    }
  }

  function beep() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    audio = audio || new Context();
    var now = audio.currentTime;
    var tone = audio.createOscillator();
    var gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.2, now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start(now);
    tone.stop(now + 0.3);
  }

  function showSoundToggle() {
    if (!soundToggle) return;
    soundToggle.hidden = false;
    soundToggle.setAttribute("aria-pressed", soundOn() ? "true" : "false");
    soundToggle.addEventListener("click", function () {
      var on = !soundOn();
      try {
        window.localStorage.setItem(SOUND_KEY, on ? "on" : "off");
      } catch (e) {
        /* private mode: the switch still works for this page */
      }
      soundToggle.setAttribute("aria-pressed", on ? "true" : "false");
      if (on) beep(); // a sample, and browsers only allow audio after a click
    });
  }

  /* A name for a focused board control that survives re-rendering: its id, or its form's
   * hidden fields (all but the version) plus the control's own name and value. */
  function focusKey(element) {
    if (!element || !element.closest || !element.closest("#board")) return null;
    if (element.id) return "#" + element.id;
    var form = element.closest("form");
    if (!form) return null;
    var fields = Array.prototype.filter
      .call(form.querySelectorAll("input[type=hidden]"), function (input) {
        return input.name !== "version" && input.name !== "csrfmiddlewaretoken";
      })
      .map(function (input) {
        return input.name + "=" + input.value;
      });
    return fields.join("&") + "|" + element.tagName + "|" + (element.name || "") + "|" + (element.value || element.textContent.trim());
  }

  function findByKey(key) {
    if (!key) return null;
    if (key.charAt(0) === "#") return document.getElementById(key.slice(1));
    var controls = document.querySelectorAll("#board form button, #board form input, #board form select");
    for (var i = 0; i < controls.length; i++) {
      if (focusKey(controls[i]) === key) return controls[i];
    }
    return null;
  }

  function beforeUpdate() {
    if (pending) return;
    var cards = {};
    document.querySelectorAll(CARD_SELECTOR).forEach(function (card) {
      cards[card.dataset.card] = true;
    });
    var active = document.activeElement;
    pending = {
      cards: cards,
      focusInBoard: !!(active && active.closest && active.closest("#board")),
      focusKey: focusKey(active),
    };
    // Also from here: an outerHTML swap detaches the element htmx reports "afterSwap" on, so
    // that event may never bubble up to the body.
    scheduleAfterUpdate();
  }

  var scheduled = false;
  function scheduleAfterUpdate() {
    if (scheduled) return;
    scheduled = true;
    // After htmx's settle step (20 ms by default), once every region of a push is in.
    window.setTimeout(function () {
      scheduled = false;
      afterUpdate();
    }, 40);
  }

  function afterUpdate() {
    var before = pending;
    pending = null;
    if (!before) return;
    var mine = isMyTurn();

    document.title = mine ? "▶ " + turnTitle + " · " + baseTitle : baseTitle;

    document.querySelectorAll(CARD_SELECTOR).forEach(function (card) {
      if (!before.cards[card.dataset.card]) card.classList.add("card-arrived");
    });

    // Announced once per new board version: two moves can read the same ("You drew Gold 1").
    var line = newestLine();
    var version = logVersion();
    if (announcer && line && version !== lastAnnounced) {
      var banner = document.querySelector("#board-banner .banner-text");
      announcer.textContent = mine && !wasMyTurn && banner ? line + ". " + banner.textContent.trim() : line;
      lastAnnounced = version;
    }

    if (mine && !wasMyTurn && soundOn()) beep();

    var active = document.activeElement;
    var lost = !active || active === document.body || !document.contains(active);
    if (before.focusInBoard && lost) {
      var target = findByKey(before.focusKey);
      if (!target && mine) target = document.querySelector("#board-actions button, #board-actions input:not([type=hidden])");
      target = target || document.getElementById("board-banner");
      if (target) target.focus({ preventScroll: true });
    }
    wasMyTurn = mine;
  }

  ["htmx:beforeSwap", "htmx:oobBeforeSwap", "htmx:wsBeforeMessage"].forEach(function (name) {
    document.body.addEventListener(name, beforeUpdate);
  });
  ["htmx:afterSwap", "htmx:oobAfterSwap", "htmx:wsAfterMessage"].forEach(function (name) {
    document.body.addEventListener(name, scheduleAfterUpdate);
  });

  var socket = null; // the ws extension's socket wrapper, while it is open
  live.addEventListener("htmx:wsOpen", function (event) {
    socket = event.detail.socketWrapper;
  });
  live.addEventListener("htmx:wsClose", function () {
    socket = null;
  });
  function isMoveForm(elt) {
    return elt && elt.closest && elt.closest("#board-actions");
  }
  document.body.addEventListener("htmx:configRequest", function (event) {
    if (socket && isMoveForm(event.detail.elt)) {
      event.detail.headers["X-Board-Socket"] = "open";
    }
  });
  // A move answered 204 waits for its push; a push lost on the way (the server logs a hint it
  // could not send) must not leave the board stale, so after a while the page asks for it.
  var PUSH_WAIT_MS = 3000;
  function boardVersion() {
    var board = document.getElementById("board");
    return board ? board.dataset.version : "";
  }
  document.body.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.xhr.status !== 204 || !isMoveForm(event.detail.elt)) return;
    var before = boardVersion();
    window.setTimeout(function () {
      if (socket && boardVersion() === before) socket.send(JSON.stringify({ type: "resync" }));
    }, PUSH_WAIT_MS);
  });

  showSoundToggle();
  if (wasMyTurn) document.title = "▶ " + turnTitle + " · " + baseTitle;
})();
