// Home page: narrow the list by topic (the chips) and venue, and sort it by name or title,
// instantly; the address keeps ?topic=&venue=&sort= so the view can be shared. Without
// JavaScript the chips and venue links lead to the static topic and venue pages.
(function () {
  "use strict";
  var list = document.getElementById("paper-list");
  var count = document.getElementById("paper-count");
  var tools = document.getElementById("list-tools");
  if (!list || !count || !tools) return;
  var venueSelect = document.getElementById("venue-filter");
  var sortSelect = document.getElementById("sort-order");
  var cards = Array.prototype.slice.call(list.querySelectorAll(".card"));
  var chips = Array.prototype.slice.call(document.querySelectorAll(".chips a[data-topic]"));
  var total = count.textContent;
  var state = { topic: "", venue: "", sort: "" };
  tools.hidden = false;

  function sortKey(card) {
    if (state.sort === "name") return (card.getAttribute("data-name") || "\uffff" + card.getAttribute("data-title")).toLowerCase();
    if (state.sort === "title") return card.getAttribute("data-title").toLowerCase();
    return "";
  }

  function apply(updateAddress) {
    var shown = 0;
    cards.forEach(function (card) {
      var topics = " " + card.getAttribute("data-topics") + " ";
      var match = (!state.topic || topics.indexOf(" " + state.topic + " ") >= 0) &&
        (!state.venue || card.getAttribute("data-venue") === state.venue);
      card.hidden = !match;
      if (match) shown += 1;
    });
    var ordered = cards.slice();
    if (state.sort) {
      ordered.sort(function (a, b) { return sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0; });
    }
    ordered.forEach(function (card) { list.appendChild(card); });
    chips.forEach(function (chip) {
      chip.setAttribute("aria-pressed", chip.getAttribute("data-topic") === state.topic ? "true" : "false");
    });
    venueSelect.value = state.venue;
    sortSelect.value = state.sort;
    count.textContent = state.topic || state.venue ? window.catalogueText("shown_of", { shown: shown, total: total }) : total;
    if (updateAddress && location.protocol !== "file:") {
      var params = new URLSearchParams(location.search);
      Object.keys(state).forEach(function (key) {
        if (state[key]) params.set(key, state[key]); else params.delete(key);
      });
      var query = params.toString();
      history.replaceState(null, "", location.pathname + (query ? "?" + query : "") + location.hash);
    }
  }

  chips.forEach(function (chip) {
    chip.setAttribute("role", "button");
    chip.setAttribute("aria-pressed", "false");
    chip.addEventListener("click", function (event) {
      event.preventDefault();
      state.topic = chip.getAttribute("aria-pressed") === "true" ? "" : chip.getAttribute("data-topic");
      apply(true);
    });
  });
  venueSelect.addEventListener("change", function () { state.venue = venueSelect.value; apply(true); });
  sortSelect.addEventListener("change", function () { state.sort = sortSelect.value; apply(true); });

  var params = new URLSearchParams(location.search);
  var known = function (select, value) {
    return Array.prototype.some.call(select.options, function (option) { return option.value === value; });
  };
  if (chips.some(function (chip) { return chip.getAttribute("data-topic") === params.get("topic"); })) {
    state.topic = params.get("topic");
  }
  if (known(venueSelect, params.get("venue"))) state.venue = params.get("venue");
  if (known(sortSelect, params.get("sort"))) state.sort = params.get("sort");
  if (state.topic || state.venue || state.sort) apply(false);
})();
