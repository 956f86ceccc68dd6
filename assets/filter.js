// Home page: filter the list by topic without leaving the page. Without JavaScript the
// topic chips are plain links to the topic pages, so nothing is lost.
(function () {
  "use strict";
  var bar = document.getElementById("filter-bar");
  var select = document.getElementById("topic-filter");
  var list = document.getElementById("paper-list");
  var count = document.getElementById("paper-count");
  if (!bar || !select || !list) return;
  var cards = Array.prototype.slice.call(list.querySelectorAll(".card"));
  var chips = Array.prototype.slice.call(document.querySelectorAll(".chips a[data-topic]"));
  bar.hidden = false;

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
    select.value = topic;
    count.textContent = shown + (shown === 1 ? " paper" : " papers");
    if (updateAddress && window.history.replaceState && location.protocol !== "file:") {
      var params = new URLSearchParams(location.search);
      if (topic) params.set("topic", topic); else params.delete("topic");
      var query = params.toString();
      history.replaceState(null, "", location.pathname + (query ? "?" + query : "") + location.hash);
    }
  }

  select.addEventListener("change", function () { apply(select.value, true); });
  chips.forEach(function (chip) {
    chip.setAttribute("role", "button");
    chip.addEventListener("click", function (event) {
      event.preventDefault();
      var topic = chip.getAttribute("data-topic");
      apply(select.value === topic ? "" : topic, true);
    });
  });
  var initial = new URLSearchParams(location.search).get("topic") || "";
  if (initial && select.querySelector('option[value="' + CSS.escape(initial) + '"]')) apply(initial, false);
})();
