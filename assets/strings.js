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
