// A venue and year's page: a box that filters its papers by words of their titles, names and
// authors, a sort (catalogue order, title, first author's family name), and a menu in the pager that
// jumps to any page. The papers come from the venue's own part of the list data
// (list-data/venues/<slug>.js, with list-data.js for the topics' names: assets/parts.js), loaded
// when the controls are first pointed at or used. The address keeps the choice (?q=&sort=&page=),
// so a shared link opens it again. Without JavaScript the static pages and their pager stay as they are.
(function () {
  "use strict";
  var list = document.getElementById("paper-list");
  var pagerBox = document.getElementById("list-pager");
  var count = document.querySelector(".intro .count");
  var feed = document.querySelector('link[rel="alternate"][href$="/feed.xml"]');
  var slug = feed && /venues\/([^\/]+)\/feed\.xml$/.exec(feed.getAttribute("href"));
  if (!list || !pagerBox || !count || !slug || !window.catalogueParts) return;
  var root = document.documentElement.getAttribute("data-root") || "";
  var perPage = Number(list.getAttribute("data-per-page"));
  var text = window.catalogueText, element = window.catalogueElement;
  var part = window.catalogueRoute("venue_list_part", {slug: decodeURIComponent(slug[1])});
  var original = {
    items: Array.prototype.slice.call(list.children), start: list.getAttribute("start"),
    pager: Array.prototype.slice.call(pagerBox.childNodes), count: count.textContent
  };
  var state = { q: "", sort: "", page: 1 };
  var rows = null, entries = null, orders = {};

  // --- The controls, made here: a page without JavaScript carries none -------------------------

  function labelled(labelText, control) {
    var label = element("label", null, labelText + " ");
    label.appendChild(control);
    return label;
  }

  var tools = element("div", "list-tools");
  var input = element("input");
  input.type = "search";
  input.placeholder = text("venue_filter_hint");
  input.autocomplete = "off";
  var sortSelect = element("select");
  [["", text("catalogue_order")], ["title", text("sort_title")], ["author", text("sort_first_author")]].forEach(function (choice) {
    var option = sortSelect.appendChild(element("option", null, choice[1]));
    option.value = choice[0];
  });
  tools.appendChild(labelled(text("list_filter"), input));
  tools.appendChild(labelled(text("sort"), sortSelect));
  var bar = document.querySelector(".list-bar");
  if (bar) bar.insertBefore(tools, bar.firstChild); else list.parentNode.insertBefore(tools, list);

  function active() { return Boolean(state.q || state.sort); }

  // --- The papers: the part's rows, each with its words, in the orders asked for ------------------

  function familyName(entry) {
    var name = typeof entry === "string" ? entry : entry[0];
    return (name.split(" ").pop() + " " + name).toLowerCase();
  }

  function prepare(tables, part) {
    entries = window.catalogueEntries(tables, root);
    rows = part.map(function (row) {
      var authors = row[6].map(function (entry) { return typeof entry === "string" ? entry : entry[0]; }).concat(row[9] || []);
      return { row: row, words: window.catalogueWords([row[2], row[3] || ""].concat(authors).join(" ")) };
    });
  }

  function order(sort) {
    if (orders[sort]) return orders[sort];
    var keys = rows.map(function (item) {
      if (sort === "title") return item.row[2].toLowerCase();
      if (sort === "author") return item.row[6].length ? familyName(item.row[6][0]) : "\uffff";
      return 0;
    });
    var indexes = rows.map(function (item, at) { return at; });
    indexes.sort(function (a, b) { return keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : a - b; });
    orders[sort] = indexes;
    return indexes;
  }

  // Every word typed begins a word of the paper's (the last one may be half typed).
  function found() {
    var wanted = window.catalogueWords(state.q);
    return order(state.sort).filter(function (at) {
      var words = rows[at].words;
      return wanted.every(function (word) { return words.some(function (own) { return own.indexOf(word) === 0; }); });
    });
  }

  // --- The pager: numbers near the page, and a menu of every page ----------------------------------

  // A menu of the pages and a button that goes (choosing alone does not move a keyboard's reader on).
  function jumpMenu(page, pages, go) {
    var form = element("form", "page-jump");
    var select = element("select");
    for (var number = 1; number <= pages; number += 1) {
      var option = select.appendChild(element("option", null, String(number)));
      option.value = String(number);
      option.selected = number === page;
    }
    form.appendChild(labelled(text("jump_page"), select));
    var button = form.appendChild(element("button", null, text("go")));
    button.type = "submit";
    form.addEventListener("submit", function (event) { event.preventDefault(); go(Number(select.value)); });
    return form;
  }

  function filteredAddress(page) {
    var params = new URLSearchParams();
    if (state.q) params.set("q", state.q);
    if (state.sort) params.set("sort", state.sort);
    if (page > 1) params.set("page", String(page));
    var query = params.toString();
    return location.pathname + (query ? "?" + query : "");
  }

  function pager(page, pages) {
    var nav = window.cataloguePager(page, pages, filteredAddress);
    nav.appendChild(jumpMenu(page, pages, function (number) { state.page = number; show(true, true); }));
    return nav;
  }

  // The static pager's menu: the addresses of the list's pages, from its first page's link.
  function staticJump() {
    var nav = pagerBox.querySelector(".list-pager");
    if (!nav) return;
    var links = Array.prototype.slice.call(nav.querySelectorAll("ol a"));
    var first = links.filter(function (made) { return made.textContent === "1"; })[0];
    var current = nav.querySelector("[aria-current]");
    if (!first || !current) return;
    var base = first.getAttribute("href").replace(/index\.html$/, "");
    var pages = Number(links[links.length - 1].textContent);
    nav.appendChild(jumpMenu(Number(current.textContent), pages, function (number) {
      location.href = base + (number === 1 ? "index.html" : window.catalogueRoute("list_page", {number: number}));
    }));
  }

  // --- Showing the state --------------------------------------------------------------------------

  function render() {
    var shown = found();
    var pages = Math.max(1, Math.ceil(shown.length / perPage));
    state.page = Math.min(state.page, pages);
    var first = (state.page - 1) * perPage;
    list.replaceChildren.apply(list, shown.slice(first, first + perPage).map(function (at) {
      var card = entries.card(rows[at].row);
      var venue = card.querySelector(".venue");  // the page's own venue, which a card here leaves out
      if (venue) venue.remove();
      return card;
    }));
    if (first) list.setAttribute("start", String(first + 1)); else list.removeAttribute("start");
    if (!shown.length) pagerBox.replaceChildren(element("p", "count", text("no_match_filters")));
    else if (pages > 1) pagerBox.replaceChildren(pager(state.page, pages));
    else pagerBox.replaceChildren();
    var total = text("count_papers", { count: rows.length });
    if (state.q) total = text("shown_of", { shown: shown.length, total: total });
    count.textContent = total + (pages > 1 ? " · " + text("page_of", { page: state.page, pages: pages }) : "");
    list.removeAttribute("aria-busy");
    document.dispatchEvent(new Event("catalogue:listed"));
  }

  function restore() {
    list.replaceChildren.apply(list, original.items);
    if (original.start) list.setAttribute("start", original.start); else list.removeAttribute("start");
    pagerBox.replaceChildren.apply(pagerBox, original.pager);
    count.textContent = original.count;
    document.dispatchEvent(new Event("catalogue:listed"));
  }

  function load(then) {
    window.catalogueParts(["list-data", part], function () {
      var parts = window.CATALOGUE_PARTS;
      if (!rows && parts["list-data"] && parts[part]) prepare(parts["list-data"], parts[part]);
      if (then) then();
    });
  }

  // Show the state and put it in the address (the same page, its query only: a page opened from
  // disk may change no more); back on the static page once no choice is left.
  function show(scrollUp, focusFirst) {
    try { history.replaceState(null, "", active() ? filteredAddress(state.page) : location.pathname); } catch (error) { /* a sandboxed frame */ }
    if (!active()) { restore(); return; }
    list.setAttribute("aria-busy", "true");
    load(function () {
      if (!rows || !active()) return;
      render();
      if (scrollUp && list.getBoundingClientRect().top < 0) tools.scrollIntoView();
      var first = focusFirst && list.querySelector(".card-title a");
      if (first) first.focus();
    });
  }

  input.addEventListener("input", function () { state.q = input.value.trim(); state.page = 1; show(false); });
  sortSelect.addEventListener("change", function () { state.sort = sortSelect.value; state.page = 1; show(false); });
  pagerBox.addEventListener("click", function (event) {
    var target = event.target.closest && event.target.closest("a[data-page]");
    if (!target) return;  // the static pager: real pages
    event.preventDefault();
    state.page = Number(target.getAttribute("data-page"));
    show(true);
  });
  ["pointerover", "focusin", "touchstart"].forEach(function (type) {
    tools.addEventListener(type, function () { load(null); }, { once: true, passive: true });
  });

  staticJump();
  original.pager = Array.prototype.slice.call(pagerBox.childNodes);
  var params = new URLSearchParams(location.search);
  state.q = (params.get("q") || "").trim();
  state.sort = ["title", "author"].indexOf(params.get("sort")) >= 0 ? params.get("sort") : "";
  state.page = Math.max(1, parseInt(params.get("page"), 10) || 1);
  input.value = state.q;
  sortSelect.value = state.sort;
  if (active()) show(false);
})();
