// Home page: the topic chips filter the list in place (press again to show all) and the
// address keeps ?topic= so the view can be shared. Without JavaScript the chips are plain
// links to the topic pages, so nothing is lost.
(function () {
  "use strict";
  var list = document.getElementById("paper-list");
  var count = document.getElementById("paper-count");
  if (!list || !count) return;
  var cards = Array.prototype.slice.call(list.querySelectorAll(".card"));
  var chips = Array.prototype.slice.call(document.querySelectorAll(".chips a[data-topic]"));
  var total = count.textContent;

  function apply(topic, updateAddress) {
    var shown = 0;
    cards.forEach(function (card) {
      var match = !topic || (" " + card.getAttribute("data-topics") + " ").indexOf(" " + topic + " ") >= 0;
      card.hidden = !match;
      if (match) shown += 1;
    });
    chips.forEach(function (chip) {
      chip.setAttribute("aria-pressed", chip.getAttribute("data-topic") === topic ? "true" : "false");
    });
    count.textContent = topic ? shown + " of " + total : total;
    if (updateAddress && location.protocol !== "file:") {
      var params = new URLSearchParams(location.search);
      if (topic) params.set("topic", topic); else params.delete("topic");
      var query = params.toString();
      history.replaceState(null, "", location.pathname + (query ? "?" + query : "") + location.hash);
    }
  }

  chips.forEach(function (chip) {
    chip.setAttribute("role", "button");
    chip.setAttribute("aria-pressed", "false");
    chip.addEventListener("click", function (event) {
      event.preventDefault();
      var topic = chip.getAttribute("data-topic");
      apply(chip.getAttribute("aria-pressed") === "true" ? "" : topic, true);
    });
  });
  var initial = new URLSearchParams(location.search).get("topic");
  if (initial && chips.some(function (chip) { return chip.getAttribute("data-topic") === initial; })) {
    apply(initial, false);
  }
})();
