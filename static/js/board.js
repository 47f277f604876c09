/* The game page's small comforts, all optional: the page works without them.
 *
 * After every board update (an htmx answer to a move, or a live WebSocket push) this script
 * - puts "Your turn" in the tab title while a decision of mine is awaited,
 * - beeps once when my turn starts, if I switched the sound on (off by default, remembered
 *   in localStorage),
 * - copies the newest log line into the page's polite live region for screen readers,
 * - gives focus back to the control I was on (or to my next decision) when the swap removed it,
 * - shows what changed: cards glide from where they were to where they are now, new cards ease
 *   in, cards gone fade out where they were, changed dice roll, the new log line lights up
 *   (all under 400 ms, and none of it when the reader prefers reduced motion),
 * - tells the server, with each move, when this page's socket is open: the socket's push then
 *   brings the new board and the move's answer is an empty 204 (games/play/views.py `act`), so the
 *   board is drawn once per move; with the socket closed, the answer is the board.
 */
(function () {
  "use strict";

  var SOUND_KEY = "biblios.turnSound";
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
    var active = document.activeElement;
    pending = {
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
    restoreFolds(); // again: an outerHTML swap's "afterSwap" may never have reached the body
    var before = pending;
    pending = null;
    if (!before) return;
    var mine = isMyTurn();

    document.title = mine ? "▶ " + turnTitle + " · " + baseTitle : baseTitle;

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

  /* Motion. Measured before a batch of swaps (the board as the reader last saw it), played in
   * the next animation frame, once every region of the batch is in and before it is painted:
   * FLIP, each card face drawn where it was and let go to where it is now. Cards are matched by
   * the id on their face (`data-card`); face-down cards carry none, and a card gone fades out as
   * a copy of its face that was on screen, so the motion shows nothing that the boards before
   * and after did not. The log and the final score stay still: they only list cards. */
  var MOVE_MS = 300;
  var ENTER_MS = 250;
  var LEAVE_MS = 250;
  var ROLL_MS = 350;
  var HIGHLIGHT_MS = 380;
  var HIGHLIGHT = "rgba(255, 196, 0, 0.45)";
  // A frame this late comes to a tab that was hidden: the news it would animate is old.
  var STALE_MS = 1000;
  var reducedMotion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  var shown = null; // the board as last painted, while a batch of swaps is under way

  function motionWelcome() {
    return typeof Element.prototype.animate === "function" && !(reducedMotion && reducedMotion.matches);
  }

  function regionOf(element) {
    var region = element.parentElement && element.parentElement.closest("[data-version]");
    return region ? region.id : "";
  }

  /* Every card face the board draws, and where on the page (a face inside a closed <details>
   * has no box, and is left alone). */
  function facesOnBoard() {
    var faces = [];
    document.querySelectorAll("#board [data-card]").forEach(function (face) {
      if (face.closest("#board-log, #board-score")) return;
      var box = face.getBoundingClientRect();
      if (!box.width || !box.height) return;
      faces.push({
        element: face,
        id: face.dataset.card,
        region: regionOf(face),
        box: { left: box.left + window.scrollX, top: box.top + window.scrollY, width: box.width, height: box.height },
      });
    });
    return faces;
  }

  function diceValues() {
    var values = {};
    document.querySelectorAll("#board-dice .die[data-category]").forEach(function (die) {
      values[die.dataset.category] = die.dataset.value;
    });
    return values;
  }

  function onScreen(box) {
    var top = box.top - window.scrollY;
    var left = box.left - window.scrollX;
    return top < window.innerHeight && top + box.height > 0 && left < window.innerWidth && left + box.width > 0;
  }

  /* Old and new faces of one id, those in the same region first: a card shown twice (in the
   * hand and in a payment form) keeps each of its places. */
  function pairFaces(before, after) {
    var unpaired = before.slice();
    function take(face, sameRegion) {
      for (var i = 0; i < unpaired.length; i++) {
        var old = unpaired[i];
        if (old.id === face.id && (!sameRegion || old.region === face.region)) return unpaired.splice(i, 1)[0];
      }
      return null;
    }
    var moved = [];
    var elsewhere = [];
    after.forEach(function (face) {
      var old = take(face, true);
      if (old) moved.push([old, face]);
      else elsewhere.push(face);
    });
    var arrived = [];
    elsewhere.forEach(function (face) {
      var old = take(face, false);
      if (old) moved.push([old, face]);
      else arrived.push(face);
    });
    return { moved: moved, arrived: arrived, gone: unpaired };
  }

  function round(number) {
    return Math.round(number * 100) / 100;
  }

  /* A face in motion lets clicks through: passing over a button, it must not take its click. */
  function animateFace(element, keyframes, options) {
    element.style.pointerEvents = "none";
    var animation = element.animate(keyframes, options);
    animation.onfinish = animation.oncancel = function () {
      element.style.removeProperty("pointer-events");
    };
  }

  function glide(old, face) {
    var from = old.box;
    var to = face.box;
    var dx = round(from.left + from.width / 2 - (to.left + to.width / 2));
    var dy = round(from.top + from.height / 2 - (to.top + to.height / 2));
    var sx = round(from.width / to.width);
    var sy = round(from.height / to.height);
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1 && sx === 1 && sy === 1) return;
    if (!onScreen(from) && !onScreen(to)) return;
    // One keyframe: the face ends wherever the page's own styles put it.
    var start = "translate(" + dx + "px, " + dy + "px) scale(" + sx + ", " + sy + ")";
    animateFace(face.element, [{ offset: 0, transform: start }], {
      duration: MOVE_MS,
      easing: "ease-out",
      id: "card-move",
    });
  }

  function easeIn(face) {
    if (!onScreen(face.box)) return;
    animateFace(face.element, [{ offset: 0, opacity: 0, transform: "scale(0.85)" }], {
      duration: ENTER_MS,
      easing: "ease-out",
      id: "card-enter",
    });
  }

  /* A card gone fades out where it was: a copy of its face, without its id (a picture, not a
   * card of the board), in its region and inside copies of the elements it sat in so that the
   * board's styles still dress it; aria-hidden, inert, removed when done. */
  function fadeOut(old) {
    var region = document.getElementById(old.region);
    if (!region || !region.closest("#board") || !onScreen(old.box)) return;
    var copy = old.element.cloneNode(true);
    copy.removeAttribute("data-card");
    copy.style.margin = "0";
    copy.style.boxSizing = "border-box";
    copy.style.width = old.box.width + "px";
    copy.style.height = old.box.height + "px";
    var inner = copy;
    for (var node = old.element.parentElement; node && node.id !== old.region; node = node.parentElement) {
      var shell = document.createElement(node.tagName);
      shell.className = node.className;
      shell.style.display = "contents";
      shell.appendChild(inner);
      inner = shell;
    }
    var ghost = document.createElement("div");
    ghost.setAttribute("aria-hidden", "true");
    ghost.inert = true;
    ghost.style.position = "absolute";
    ghost.style.left = "0";
    ghost.style.top = "0";
    ghost.style.margin = "0";
    ghost.style.pointerEvents = "none";
    ghost.appendChild(inner);
    region.appendChild(ghost);
    var at = copy.getBoundingClientRect();
    ghost.style.left = round(old.box.left - window.scrollX - at.left) + "px";
    ghost.style.top = round(old.box.top - window.scrollY - at.top) + "px";
    var fade = ghost.animate([{ opacity: 1 }, { opacity: 0, transform: "scale(0.85)" }], {
      duration: LEAVE_MS,
      easing: "ease-in",
      id: "card-leave",
    });
    fade.onfinish = fade.oncancel = function () {
      ghost.remove();
    };
  }

  function roll(die) {
    var face = die.querySelector("svg") || die;
    face.animate(
      [
        { transform: "rotate(0deg) scale(1)" },
        { transform: "rotate(-200deg) scale(0.7)", offset: 0.5 },
        { transform: "rotate(-360deg) scale(1)" },
      ],
      { duration: ROLL_MS, easing: "ease-in-out", id: "die-roll" }
    );
  }

  function beforeMotion() {
    if (shown || !motionWelcome()) return;
    shown = { faces: facesOnBoard(), dice: diceValues(), log: logVersion(), at: Date.now() };
    window.requestAnimationFrame(playMotion);
  }

  function playMotion() {
    var before = shown;
    shown = null;
    if (!before || !motionWelcome() || Date.now() - before.at > STALE_MS) return;
    var faces = pairFaces(before.faces, facesOnBoard());
    faces.moved.forEach(function (pair) {
      glide(pair[0], pair[1]);
    });
    faces.arrived.forEach(easeIn);
    faces.gone.forEach(fadeOut);
    document.querySelectorAll("#board-dice .die[data-category]").forEach(function (die) {
      var was = before.dice[die.dataset.category];
      if (was !== undefined && was !== die.dataset.value) roll(die);
    });
    var line = document.querySelector("#board-log li");
    if (line && logVersion() !== before.log) {
      line.animate([{ offset: 0, backgroundColor: HIGHLIGHT }], {
        duration: HIGHLIGHT_MS,
        easing: "ease-out",
        id: "log-new",
      });
    }
  }

  /* Folds (a board's <details data-fold>, e.g. Ex Libris' locations): the server opens those
   * where the reader's game is (`data-fold-open`) and a push redraws them so. What the reader
   * opened or folded by hand is put back after each swap, until the server changes its own
   * choice for that fold (the decision moved there, or away). */
  var folds = {}; // fold key -> { open: the reader's choice, server: the server's then }
  document.addEventListener("click", function (event) {
    var summary = event.target.closest && event.target.closest("details[data-fold] > summary");
    if (!summary) return;
    var details = summary.parentElement;
    // The click comes before the toggle: the reader's choice is the other state.
    folds[details.dataset.fold] = { open: !details.open, server: details.hasAttribute("data-fold-open") };
  });

  function restoreFolds() {
    document.querySelectorAll("#board details[data-fold]").forEach(function (details) {
      var key = details.dataset.fold;
      var choice = folds[key];
      if (!choice) return;
      if (choice.server !== details.hasAttribute("data-fold-open")) delete folds[key];
      else details.open = choice.open;
    });
  }

  ["htmx:beforeSwap", "htmx:oobBeforeSwap", "htmx:wsBeforeMessage"].forEach(function (name) {
    document.body.addEventListener(name, beforeUpdate);
    document.body.addEventListener(name, beforeMotion);
  });
  ["htmx:afterSwap", "htmx:oobAfterSwap", "htmx:wsAfterMessage"].forEach(function (name) {
    document.body.addEventListener(name, restoreFolds);
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
  // The message region comes with every push (games/live_regions.py), so it holds the version.
  function boardVersion() {
    var message = document.getElementById("board-message");
    return message ? message.dataset.version : "";
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
