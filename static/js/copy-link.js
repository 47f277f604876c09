// The invite link's copy button (templates/games/table.html). The button stays hidden without
// JavaScript, where the link is plain selectable text. The waiting room is redrawn by live
// pushes, which bring this script again: one click listener on the document serves every
// button, and each redraw's new button is shown.
(function () {
  "use strict";

  function reveal(root) {
    root.querySelectorAll("button.copy-link[hidden]").forEach(function (button) {
      button.hidden = false;
    });
  }

  function say(button, text) {
    var status = button.parentElement.querySelector(".copy-status");
    if (status) status.textContent = text;
  }

  function selectLink(button) {
    var link = button.parentElement.querySelector("a");
    if (!link) return;
    var range = document.createRange();
    range.selectNodeContents(link);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    say(button, button.dataset.selected);
  }

  function copy(button) {
    // The Clipboard API needs a secure page (https or localhost); elsewhere select the text.
    if (!navigator.clipboard || !window.isSecureContext) {
      selectLink(button);
      return;
    }
    navigator.clipboard.writeText(button.dataset.copy).then(
      function () { say(button, button.dataset.copied); },
      function () { selectLink(button); }
    );
  }

  if (!window.copyLinkListening) {
    window.copyLinkListening = true;
    document.addEventListener("click", function (event) {
      var button = event.target.closest && event.target.closest("button.copy-link");
      if (button) copy(button);
    });
    document.addEventListener("htmx:load", function (event) { reveal(event.target); });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { reveal(document); });
  } else {
    reveal(document);
  }
})();
