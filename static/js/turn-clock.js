// Turn clock: counts down the seconds the server rendered into each `.turn-clock` (the deadline
// itself is the server's, in data-deadline, and the server refuses late moves whatever this
// shows). Counting from the rendered seconds rather than the deadline keeps a client whose
// clock is wrong from showing a wrong time. The time reads as the server writes it
// (games/play/rendering.py `time_left_text`), with the clock's own formats: "11 h 59 min" on a
// turn-based table, "2 min 5 s" or "9 s" on a live one. Without JavaScript the rendered time
// still shows.
(function () {
  const started = new WeakMap();

  function text(clock, left) {
    const hours = Math.floor(left / 3600);
    const minutes = Math.floor((left % 3600) / 60);
    const unit = hours ? "hours" : minutes ? "minutes" : "seconds";
    return clock.dataset[unit]
      .replace("%(hours)s", String(hours))
      .replace("%(minutes)s", String(minutes))
      .replace("%(seconds)s", String(left % 60));
  }

  function tick() {
    document.querySelectorAll(".turn-clock[data-seconds-left]").forEach(function (clock) {
      if (!started.has(clock)) started.set(clock, performance.now());
      const elapsed = (performance.now() - started.get(clock)) / 1000;
      const left = Math.max(0, Math.ceil(Number(clock.dataset.secondsLeft) - elapsed));
      const shown = clock.querySelector(".seconds-left");
      const wanted = text(clock, left);
      if (shown && shown.textContent !== wanted) shown.textContent = wanted;
      clock.classList.toggle("running-out", left <= 10);
    });
  }

  setInterval(tick, 250);
  document.addEventListener("DOMContentLoaded", tick);
})();
