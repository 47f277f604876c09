// Learn to play (templates/games/learn.html): after each move htmx swaps the whole lesson; the
// coach's new words then take the focus, so a screen reader reads the next step and the
// keyboard starts again from it, just above the move's buttons.
document.body.addEventListener("htmx:afterSettle", function () {
  var coach = document.getElementById("lesson-coach");
  if (coach && !coach.contains(document.activeElement)) {
    coach.focus();
  }
});
