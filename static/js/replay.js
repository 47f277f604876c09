// Replay viewer: arrow keys step through the game, the slider jumps, the current move stays in
// sight. Every control is also a plain link or form, so the viewer works without this script.
(function () {
  const KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest("input:not([type=range]), textarea, select")) return;
    const step = KEYS[event.key];
    const link = step && document.querySelector('#replay a[data-step="' + step + '"]');
    if (link) {
      event.preventDefault();
      link.click();
    }
  });

  document.addEventListener("change", function (event) {
    if (event.target.matches("#replay input[type=range]")) {
      event.target.form.requestSubmit();
    }
  });

  function showCurrent() {
    const current = document.querySelector("#replay .replay-log .current");
    if (current) current.scrollIntoView({ block: "nearest" });
  }
  document.addEventListener("DOMContentLoaded", showCurrent);
  document.addEventListener("htmx:afterSettle", showCurrent);
})();
