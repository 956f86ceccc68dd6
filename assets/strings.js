// The interface strings scripts show, in the page's language: read from the page's
// <script type="application/json" id="ui-strings"> (catalogue/locales/<language>.yaml, `script`).
// text("results", {count: 3}) picks the plural form by `count` and fills the {placeholders}.
window.catalogueText = (function () {
  "use strict";
  var element = document.getElementById("ui-strings");
  var strings = element ? JSON.parse(element.textContent) : {};
  return function (key, values) {
    values = values || {};
    var entry = strings[key];
    if (entry && typeof entry === "object") entry = values.count === 1 && entry.one ? entry.one : entry.other;
    return String(entry === undefined ? key : entry).replace(/\{(\w+)\}/g, function (whole, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? values[name] : whole;
    });
  };
})();

// A derived title's mark, as templates/_macros.html's derived_mark writes it: " " and the mark,
// its explanation on hover and for screen readers.
window.catalogueDerivedMark = function () {
  "use strict";
  var text = window.catalogueText;
  var mark = document.createElement("span");
  mark.className = "derived-mark";
  var shown = document.createElement("span");
  shown.setAttribute("aria-hidden", "true");
  shown.title = text("derived_explain");
  shown.textContent = text("derived");
  var spoken = document.createElement("span");
  spoken.className = "visually-hidden";
  spoken.textContent = " " + text("derived_explain");
  mark.appendChild(shown);
  mark.appendChild(spoken);
  var spaced = document.createDocumentFragment();
  spaced.appendChild(document.createTextNode(" "));
  spaced.appendChild(mark);
  return spaced;
};
