// The authors index's filter: type part of a name (the start of any of its words) and see the
// matching authors of every page of the index, here. The names come from the part of the filter
// data for the first letter typed (list-data/authors/<letter>.js, catalogue/site/author_parts.py,
// loaded by assets/parts.js), so a reader loads a small share of the names, and only once they type.
// Without JavaScript the index's pages and its letters stay as they are.
(function () {
  "use strict";
  var intro = document.querySelector(".intro");
  if (!intro || !window.catalogueParts) return;
  var SHOWN = 200;  // names listed at most: a longer list is narrowed by typing on
  var root = document.documentElement.getAttribute("data-root") || "";
  var text = window.catalogueText, element = window.catalogueElement;
  var index = Array.prototype.slice.call(document.querySelectorAll(".letter-jump, section.letter, nav.pager"));

  function fold(name) {
    return (name.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().match(/[\p{L}\p{N}]+/gu) || []);
  }

  function partKey(word) { return /^[a-z0-9]/.test(word) ? word[0] : "other"; }

  var box = element("div", "list-tools author-filter-box");
  box.setAttribute("role", "search");
  var label = box.appendChild(element("label", null, text("list_filter") + " "));
  var input = label.appendChild(element("input"));
  input.type = "search";
  input.placeholder = text("author_filter_hint");
  input.autocomplete = "off";
  var status = element("p", "count");
  status.setAttribute("role", "status");
  var found = element("ul", "author-index");
  found.id = "author-matches";
  intro.after(box, status, found);

  function entry(row) {
    var slug = row[2] || row[0].toLowerCase().replace(/ /g, "-");
    var item = element("li");
    item.appendChild(window.catalogueLink(root + window.catalogueRoute("author", {slug: slug}), row[0]));
    item.appendChild(document.createTextNode(" "));
    item.appendChild(element("span", "chip-count", text("count_papers", {count: row[1]})));
    return item;
  }

  function show() {
    var wanted = fold(input.value);
    index.forEach(function (part) { part.hidden = wanted.length > 0; });
    if (!wanted.length) { found.replaceChildren(); status.textContent = ""; return; }
    var name = window.catalogueRoute("author_index_part", {key: partKey(wanted[0])});
    window.catalogueParts([name], function () {
      if (fold(input.value).join(" ") !== wanted.join(" ")) return;  // typed on meanwhile
      var rows = (window.CATALOGUE_PARTS[name] || []).filter(function (row) {
        var words = fold(row[0]);
        return wanted.every(function (word) { return words.some(function (own) { return own.indexOf(word) === 0; }); });
      });
      found.replaceChildren.apply(found, rows.slice(0, SHOWN).map(entry));
      status.textContent = rows.length ? text("authors_found", {count: rows.length}) : text("authors_none");
    });
  }

  input.addEventListener("input", show);
})();
