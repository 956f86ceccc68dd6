// Parts of the catalogue's data (catalogue/site/data_parts.py), loaded as plain scripts so that they
// load from disk too: each part files its data as window.CATALOGUE_PARTS[name], its path without
// ".js". window.catalogueParts(names, done) loads those not loaded yet, then calls done() once all
// are in (a part that fails to load is filed as null, so it is not asked for again).
(function () {
  "use strict";
  var root = document.documentElement.getAttribute("data-root") || "";
  var waiting = {};  // name -> what to call once it is in
  window.CATALOGUE_PARTS = window.CATALOGUE_PARTS || {};

  window.catalogueParts = function (names, done) {
    var parts = window.CATALOGUE_PARTS;
    var left = names.filter(function (name, at) { return !(name in parts) && names.indexOf(name) === at; });
    var count = left.length;
    if (!count) { done(); return; }
    var finish = function () { count -= 1; if (!count) done(); };
    left.forEach(function (name) {
      if (waiting[name]) { waiting[name].push(finish); return; }
      waiting[name] = [finish];
      var script = document.createElement("script");
      script.src = root + name + ".js";
      script.onload = script.onerror = function () {
        var callbacks = waiting[name];
        delete waiting[name];
        if (!(name in parts)) parts[name] = null;
        callbacks.forEach(function (callback) { callback(); });
      };
      document.head.appendChild(script);
    });
  };
})();
