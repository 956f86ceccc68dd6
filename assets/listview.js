// A list's two views, cards and compact lines (one a paper), are one page: the switch sets a class
// on the list (style.css hides the excerpts, facts and topics and sets each card on a line), and this
// browser remembers the choice for every list. An address with ?view=compact (or cards) asks for a
// view and makes it the one remembered: the compact view's earlier pages forward there.
(function () {
  "use strict";
  var KEY = "paper-catalogue:view";
  var list = document.getElementById("paper-list");
  var toggle = document.getElementById("view-switch");
  if (!list) return;
  var buttons = toggle ? Array.prototype.slice.call(toggle.querySelectorAll("button[data-view]")) : [];

  function remembered() {
    try { return localStorage.getItem(KEY); } catch (error) { return null; }  // storage off: the cards
  }

  function show(view) {
    list.classList.toggle("is-compact", view === "compact");
    buttons.forEach(function (button) {
      button.setAttribute("aria-pressed", button.getAttribute("data-view") === view ? "true" : "false");
    });
  }

  function choose(view) {
    try { localStorage.setItem(KEY, view); } catch (error) { /* private mode: the view lasts the page */ }
    show(view);
  }

  var asked = new URLSearchParams(location.search).get("view");
  if (asked === "compact" || asked === "cards") choose(asked);
  else show(remembered() === "compact" ? "compact" : "cards");
  buttons.forEach(function (button) {
    button.addEventListener("click", function () { choose(button.getAttribute("data-view")); });
  });
  window.addEventListener("storage", function (event) {
    if (event.key === KEY) show(event.newValue === "compact" ? "compact" : "cards");
  });
  if (toggle) toggle.hidden = false;
})();
