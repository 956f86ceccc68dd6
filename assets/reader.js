// Reader tools on every page: a reading list kept in this browser (stars, "My list", a link
// that shares the list, BibTeX and Markdown export) and keyboard shortcuts (j/k, s, ?).
(function () {
  "use strict";
  var KEY = "paper-catalogue:list";
  var root = document.documentElement.getAttribute("data-root") || "";

  // --- The list: paper ids in localStorage -------------------------------------------------

  function load() {
    try { return JSON.parse(localStorage.getItem(KEY) || "[]").filter(function (id) { return typeof id === "string"; }); }
    catch (error) { return []; }
  }

  function save(ids) {
    try { localStorage.setItem(KEY, JSON.stringify(ids)); } catch (error) { /* private mode: the list lasts the page */ }
    refresh();
  }

  function toggle(id) {
    var ids = load();
    var at = ids.indexOf(id);
    if (at >= 0) ids.splice(at, 1); else ids.push(id);
    save(ids);
  }

  // A listed card names its paper (data-paper) and gets its star here: its label would repeat the
  // card's title in every list.
  function addStars() {
    document.querySelectorAll(".card[data-paper] > .card-meta").forEach(function (meta) {
      if (meta.querySelector("button.star")) return;
      var card = meta.parentNode;
      var name = card.querySelector(".card-meta .name") || card.querySelector(".card-title a");
      meta.insertBefore(window.catalogueStar(card.getAttribute("data-paper"), name.textContent), meta.firstChild);
    });
  }

  function refreshStars() {
    var ids = load();
    addStars();
    document.querySelectorAll("button.star[data-paper]").forEach(function (button) {
      var on = ids.indexOf(button.getAttribute("data-paper")) >= 0;
      button.setAttribute("aria-pressed", on ? "true" : "false");
      button.hidden = false;
    });
  }

  function refresh() {
    var ids = load();
    refreshStars();
    var count = document.getElementById("list-count");
    if (count) count.textContent = ids.length ? "(" + ids.length + ")" : "";
    if (document.getElementById("my-list")) renderList();
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button.star[data-paper]");
    if (button) toggle(button.getAttribute("data-paper"));
  });
  window.addEventListener("storage", function (event) { if (event.key === KEY) refresh(); });
  document.addEventListener("catalogue:stars", refresh);  // search.js rendered results, each with a star
  document.addEventListener("catalogue:listed", refresh);  // filter.js rendered new cards, with their stars

  // --- list.html: the list itself, shared as #ids=a,b,c -----------------------------------

  function sharedIds() {
    var match = /(?:^#|&)ids=([0-9a-f,]*)/.exec(location.hash);
    return match ? match[1].split(",").filter(Boolean) : null;
  }

  // list-data.js names the venues, the topics and how many of a paper id's last hex digits name
  // its part; list-data/<digits>.js holds those papers' rows, each with what cite.js needs to write
  // its BibTeX (or the entry itself, data_parts.list_row). Only the parts of the papers in the list
  // are fetched; the table of TeX's letters only for an export.
  var shown = { ids: [], rows: {}, tables: null };  // the list as last shown

  function partsOf(folder, ids, digits) {
    return ids.map(function (id) { return folder + "/" + id.slice(-digits); });
  }

  function listIds() { return sharedIds() || load(); }

  function renderList() {
    window.catalogueParts(["list-data"], function () {
      var tables = window.CATALOGUE_PARTS["list-data"] || { venues: [], topics: [], digits: 1 };
      var ids = listIds();
      window.catalogueParts(partsOf("list-data", ids, tables.digits), function () {
        if (ids.join() === listIds().join()) showList(tables, ids);  // else a later call shows the list as it is now
      });
    });
  }

  function showList(tables, wanted) {
    var rows = {};  // id -> its row of list-data/<digits>.js
    partsOf("list-data", wanted, tables.digits).forEach(function (name) {
      (window.CATALOGUE_PARTS[name] || []).forEach(function (row) { rows[row[0]] = row; });
    });
    var shared = sharedIds();
    var ids = wanted.filter(function (id) { return rows[id]; });
    var list = document.getElementById("my-list");
    var cards = window.catalogueEntries(tables, root);
    list.replaceChildren.apply(list, ids.map(function (id) { return cards.card(rows[id]); }));
    refreshStars();
    document.getElementById("list-empty").hidden = ids.length > 0;
    document.getElementById("list-actions").hidden = ids.length === 0;
    document.getElementById("shared-list").hidden = !shared;
    document.getElementById("add-all").hidden = ids.length === 0;
    nameList(shared);
    var markdown = ids.map(function (id) {
      var row = rows[id];
      var address = new URL(root + window.catalogueRoute("paper_shared", {slug: row[1]}), document.baseURI).href;
      var written = window.catalogueMarkdown;
      return "- [" + written.text(row[2]) + "](" + written.url(address) + "). *" + written.text(tables.venues[row[4]][0]) + "*.";
    }).join("\n") + "\n";
    shown = { ids: ids, rows: rows, tables: tables };
    var bibtexLink = document.getElementById("export-bibtex");
    if (bibtexLink.href.indexOf("blob:") === 0) URL.revokeObjectURL(bibtexLink.href);
    bibtexLink.href = "#";
    if ("tex-letters" in window.CATALOGUE_PARTS) exportBibtex();
    setDownload("export-markdown", markdown, "text/markdown");
    list.dataset.count = String(ids.length);
  }

  // A paper's BibTeX from its row (data_parts.list_row): the entry it carries, or the one cite.js
  // writes from its title, authors, venue's booktitle, year, key, PDF, DOI and address.
  function entryOf(row, tables) {
    var cite = row[9];
    if (typeof cite === "string") return cite;
    if (!cite) return "";
    var venue = tables.venues[row[4]];
    var names = row[6].map(function (entry) { return typeof entry === "string" ? entry : entry[0]; });
    var page = tables.base ? tables.base + window.catalogueRoute("paper_shared", {slug: row[1]}) : "";
    return window.catalogueBibtex({
      title: row[2], authors: cite.a || names, booktitle: venue[3], year: venue[1] ? String(venue[1]) : "",
      url: cite.u || page, pdf: cite.p || "", doi: cite.d || "", key: cite.k
    }) || "";
  }

  // The list's BibTeX, from the rows of its papers (the table of TeX's letters fetched now if it is
  // not in yet), as the export link's download; then `then`.
  function exportBibtex(then) {
    var ids = shown.ids, rows = shown.rows, tables = shown.tables;
    window.catalogueParts(["tex-letters"], function () {
      if (ids !== shown.ids) return;  // the list changed meanwhile: shown again, without this export
      var bibtex = ids.map(function (id) { return entryOf(rows[id], tables); }).filter(Boolean).join("\n");
      setDownload("export-bibtex", bibtex, "application/x-bibtex");
      if (then) then();
    });
  }

  // A list opened from a shared link is titled as one, on the page and in the browser's tab.
  var ownHeading = null, ownLede = null, ownTitle = document.title;
  function nameList(shared) {
    var heading = document.getElementById("list-title"), lede = document.getElementById("list-lede");
    if (!heading || !lede) return;
    if (ownHeading === null) { ownHeading = heading.textContent; ownLede = lede.textContent; }
    var name = shared ? window.catalogueText("shared_list") : ownHeading;
    heading.textContent = name;
    lede.textContent = shared ? window.catalogueText("shared_list_lede") : ownLede;
    document.title = ownTitle.replace(ownHeading, name);
  }

  function setDownload(id, text, type) {
    var link = document.getElementById(id);
    if (link.href.indexOf("blob:") === 0) URL.revokeObjectURL(link.href);
    link.href = URL.createObjectURL(new Blob([text], { type: type + ";charset=utf-8" }));
  }

  function listLink() {
    var here = location.href.split("#")[0];
    return here + "#ids=" + (sharedIds() || load()).join(",");
  }

  if (document.getElementById("my-list")) {
    document.getElementById("add-all").addEventListener("click", function () {
      var ids = load();
      (sharedIds() || []).forEach(function (id) { if (ids.indexOf(id) < 0) ids.push(id); });
      save(ids);
    });
    var bibtexLink = document.getElementById("export-bibtex");
    bibtexLink.addEventListener("click", function (event) {
      if (bibtexLink.href.indexOf("blob:") === 0) return;  // ready: the browser downloads it
      event.preventDefault();
      exportBibtex(function () { bibtexLink.click(); });
    });
    ["pointerover", "focusin", "touchstart"].forEach(function (type) {  // usually in before the click
      bibtexLink.addEventListener(type, function () {
        if (bibtexLink.href.indexOf("blob:") !== 0) exportBibtex();
      }, { passive: true });
    });
    document.getElementById("copy-list-link").addEventListener("click", function () {
      var status = document.querySelector("#list-actions .copy-status");
      var link = listLink();
      var done = function () { status.textContent = window.catalogueText("copied_link"); };
      var ask = function () { prompt(window.catalogueText("copy_prompt"), link); };
      window.catalogueCopy(link, done, ask);
    });
    window.addEventListener("hashchange", refresh);
  }
  refresh();

  // --- A bucket's page of authors: the address's author (#slug; style.css shows them alone) names
  // the tab, as their own page did, and their heading takes the focus so a screen reader starts there.

  var bucketTitle = document.title;
  var bucketHeading = document.querySelector('meta[property="og:title"]');
  function showAuthor() {
    var section = location.hash.length > 1 && document.querySelector(".authors-page > section:target");
    var heading = section && section.querySelector("h2");
    document.title = heading && bucketHeading ? bucketTitle.replace(bucketHeading.content, heading.textContent) : bucketTitle;
    if (!heading) return;
    heading.setAttribute("tabindex", "-1");
    heading.focus();
  }

  if (document.querySelector(".authors-page")) {
    showAuthor();
    window.addEventListener("hashchange", showAuthor);
  }

  // --- Keyboard: j/k move through a list (or to the next and previous paper's page), s stars the focused or selected paper, ? shows the help

  var current = -1;

  function items() {
    return Array.prototype.slice.call(document.querySelectorAll(
      "#paper-list .card:not([hidden]), .paper-list .card:not([hidden]), #search-results .result, #my-list .card"));
  }

  function move(step) {
    var list = items();
    if (!list.length) { turn(step); return; }
    var focused = list.filter(function (item) { return item.contains(document.activeElement); })[0];
    if (focused) current = list.indexOf(focused);  // from the paper with the focus (a click, Tab, "Show more")
    list.forEach(function (item) { item.classList.remove("is-current"); });
    current = Math.max(0, Math.min(list.length - 1, current + step));
    var item = list[current];
    item.classList.add("is-current");
    var link = item.querySelector(".card-title a, .result-title a");
    if (link) link.focus();
    item.scrollIntoView({ block: "nearest" });
  }

  // On a paper's page, the next or previous paper in the catalogue's order: its pager's link.
  function turn(step) {
    var link = document.querySelector("article.paper") && document.querySelector('nav.pager a[rel="' + (step > 0 ? "next" : "prev") + '"]');
    if (link) location.href = link.href;
  }

  // The paper of the card or search result with the focus (the header box's results too), else
  // the one selected with j/k, else the paper of the page.
  function starHere() {
    var active = document.activeElement;
    var focused = active && active.closest && active.closest(".card, .result");
    var holder = focused || document.querySelector(".card.is-current, .result.is-current");
    var button = (holder && holder.querySelector("button.star[data-paper]")) || document.querySelector(".paper .kicker button.star");
    if (button) toggle(button.getAttribute("data-paper"));
  }

  // The shortcuts' help, made the first time it is asked for (a page carries no copy of it):
  // a dialog of the keys and what they do, in the page's language, closed by Esc or its button.
  function shortcutsHelp() {
    var help = document.getElementById("shortcuts");
    if (help) return help;
    var text = window.catalogueText;
    function element(tag, content, className) {
      var made = document.createElement(tag);
      if (content) made.textContent = content;
      if (className) made.className = className;
      return made;
    }
    help = element("dialog", "", "shortcuts");
    help.id = "shortcuts";
    help.setAttribute("aria-labelledby", "shortcuts-title");
    var title = element("h2", text("shortcuts_title"));
    title.id = "shortcuts-title";
    var list = element("dl");
    [[["/"], text("shortcuts_search")], [["j", "k"], text("shortcuts_next_previous")], [["Enter"], text("shortcuts_open")],
     [["s"], text("shortcuts_star")], [["Esc"], text("shortcuts_escape")], [["?"], text("shortcuts_help")]].forEach(function (entry) {
      var keys = element("dt");
      entry[0].forEach(function (key, n) {
        if (n) keys.appendChild(document.createTextNode(" "));
        keys.appendChild(element("kbd", key));
      });
      list.appendChild(keys);
      list.appendChild(element("dd", entry[1]));
    });
    var form = element("form");
    form.method = "dialog";
    var close = element("button", text("shortcuts_close"));
    close.type = "submit";
    form.appendChild(close);
    help.appendChild(title);
    help.appendChild(list);
    help.appendChild(form);
    document.body.appendChild(help);
    return help;
  }

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    var typing = target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
    if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "j") { move(1); event.preventDefault(); }
    else if (event.key === "k") { move(-1); event.preventDefault(); }
    else if (event.key === "s") { starHere(); event.preventDefault(); }
    else if (event.key === "?" && window.HTMLDialogElement) {
      var help = shortcutsHelp();
      if (!help.open) help.showModal();
      event.preventDefault();
    }
  });
})();
