// Home page: the topic chips, Venue and Sort act on the whole catalogue, not only the page shown.
// The papers come from the parts of the list data (plain scripts, so they load from disk too, see
// assets/parts.js): list-data.js (venues, topics, how many papers of each topic each venue has)
// when a control is first pointed at or used, then the parts of the venues the page shows: a
// venue's own; without a venue, in catalogue order or by year, those the page's papers lie in
// (found from the counts); every venue's only to sort all by name or title. The results are
// rendered here, a page at a time, as cards (which the compact view, assets/listview.js, shows as
// lines). The address keeps the filters (?topic=&venue=&sort=&page=), so a shared link opens it again.
// Without JavaScript the controls stay hidden, the chips and venue links lead to the static topic
// and venue pages, and the static pages (page/2/index.html, ...) page through all.
(function () {
  "use strict";
  var list = document.getElementById("paper-list");
  var tools = document.getElementById("list-tools");
  var count = document.getElementById("paper-count");
  var pageOf = document.getElementById("page-of");
  var pagerBox = document.getElementById("list-pager");
  if (!list || !tools || !count || !pageOf || !pagerBox) return;
  var root = document.documentElement.getAttribute("data-root") || "";
  var perPage = Number(list.getAttribute("data-per-page"));
  var venueSelect = document.getElementById("venue-filter");
  var sortSelect = document.getElementById("sort-order");
  var chips = Array.prototype.slice.call(document.querySelectorAll(".chips a[data-topic]"));
  var total = count.textContent;
  var loadedPath = location.pathname;
  var original = {  // the static page, put back when no filter is left
    items: Array.prototype.slice.call(list.children), start: list.getAttribute("start"),
    pager: Array.prototype.slice.call(pagerBox.childNodes), pageOf: pageOf.textContent
  };
  var state = { topic: "", venue: "", sort: "", page: 1 };
  var tables = null;  // list-data.js: venues (label, year, part), topics, venues in catalogue order, counts
  var data = null;  // the rows of the parts loaded for `scope`, prepared
  var scope = null;  // the venue whose part data holds, "" for every venue's
  tools.hidden = false;

  function active() { return Boolean(state.topic || state.venue || state.sort); }

  // --- The papers: rows of the parts, in catalogue order, with each sort order made once ------

  function partName(venue) { return window.catalogueRoute("venue_list_part", {slug: tables.venues[venue][2]}); }

  function partNames(venue) {
    var at = tables.venues.map(function (entry) { return entry[0]; }).indexOf(venue);
    return (at >= 0 ? [at] : tables.order).map(partName);
  }

  function loaded(names) {
    return names.every(function (name) { return name in window.CATALOGUE_PARTS; });
  }

  // --- Without a venue, in catalogue order or by year: a page from the parts it lies in -------
  // Each venue's papers are together in catalogue order, so such a list is the venues' papers
  // one venue after another, venues by year (ties in catalogue order) or in catalogue order.

  function byVenues() { return !state.venue && ["", "newest", "oldest"].indexOf(state.sort) >= 0; }

  // [[venue, papers it gives], ...] in the list's order, and their sum.
  function venueCounts() {
    var topic = state.topic ? tables.topics.map(function (entry) { return entry[0]; }).indexOf(state.topic) : -1;
    var key = function (venue) {
      var year = tables.venues[venue][1] || 0;
      return state.sort === "newest" ? -year : state.sort === "oldest" ? year || Infinity : 0;
    };
    var venues = tables.order.map(function (venue, at) { return [key(venue), at, venue]; });
    venues.sort(function (a, b) { return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]; });
    var counts = venues.map(function (item) { return [item[2], tables.counts[item[2]][topic + 1]]; });
    return { counts: counts, total: counts.reduce(function (sum, item) { return sum + item[1]; }, 0) };
  }

  // The page's slice of each venue it lies in: [[venue, skip, take], ...], the page made valid.
  function pageSpan(counts, total) {
    state.page = Math.min(state.page, Math.max(1, Math.ceil(total / perPage)));
    var first = (state.page - 1) * perPage, last = first + perPage, at = 0, span = [];
    counts.forEach(function (item) {
      var start = at, end = at + item[1];
      at = end;
      if (end > first && start < last) span.push([item[0], Math.max(0, first - start), Math.min(end, last) - Math.max(start, first)]);
    });
    return span;
  }

  // The page's rows, or null until the parts they lie in are in (names: those parts).
  function spanRows(span, names) {
    if (!loaded(names)) return null;
    var topic = state.topic ? tables.topics.map(function (entry) { return entry[0]; }).indexOf(state.topic) : -1;
    var rows = [];
    span.forEach(function (item, at) {
      var part = (window.CATALOGUE_PARTS[names[at]] || []).filter(function (row) { return topic < 0 || row[5].indexOf(topic) >= 0; });
      rows = rows.concat(part.slice(item[1], item[1] + item[2]));
    });
    return rows;
  }

  // What the state shows: {total, first (the page's first paper's place), rows}, or the parts to
  // load first ({names}).
  function current() {
    tables = tables || window.CATALOGUE_PARTS["list-data"] || null;
    if (!tables) return { names: [] };
    if (!entries) entries = window.catalogueEntries(tables, root);
    if (byVenues()) {
      var counted = venueCounts();
      var span = pageSpan(counted.counts, counted.total);
      var names = span.map(function (item) { return partName(item[0]); });
      var rows = spanRows(span, names);
      return rows ? { total: counted.total, first: (state.page - 1) * perPage, rows: rows } : { names: names };
    }
    if (!ready()) return { names: partNames(state.venue) };
    var found = results();
    state.page = Math.min(state.page, Math.max(1, Math.ceil(found.length / perPage)));
    var first = (state.page - 1) * perPage;
    return { total: found.length, first: first,
             rows: found.slice(first, first + perPage).map(function (at) { return data.papers[at]; }) };
  }

  function prepare(names) {
    var rows = [];
    names.forEach(function (name) { rows = rows.concat(window.CATALOGUE_PARTS[name] || []); });
    var prepared = { papers: rows, venues: tables.venues, topics: tables.topics, orders: {}, venueAt: {}, topicAt: {} };
    tables.venues.forEach(function (venue, at) { prepared.venueAt[venue[0]] = at; });
    tables.topics.forEach(function (topic, at) { prepared.topicAt[topic[0]] = at; });
    return prepared;
  }

  function order(sort) {
    if (data.orders[sort]) return data.orders[sort];
    var papers = data.papers;
    var keys = papers.map(function (row) {
      var year = data.venues[row[4]][1] || 0;
      if (sort === "newest") return -year;
      if (sort === "oldest") return year || Infinity;
      if (sort === "name") return (row[3] || "\uffff" + row[2]).toLowerCase();
      if (sort === "title") return row[2].toLowerCase();
      return 0;
    });
    var indexes = papers.map(function (row, at) { return at; });
    indexes.sort(function (a, b) { return keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : a - b; });
    data.orders[sort] = indexes;
    return indexes;
  }

  function results() {
    var venue = state.venue ? data.venueAt[state.venue] : -1;
    var topic = state.topic ? data.topicAt[state.topic] : -1;
    var papers = data.papers;
    return order(state.sort).filter(function (at) {
      var row = papers[at];
      return (venue < 0 || row[4] === venue) && (topic < 0 || row[5].indexOf(topic) >= 0);
    });
  }

  // Whether data holds the papers the state asks for (a venue's, or every venue's), made from
  // the parts when they are in.
  function ready() {
    var wanted = state.venue;
    if (data && (scope === "" || scope === wanted)) return true;
    var names = partNames(wanted);
    if (!loaded(names)) return false;
    data = prepare(names);
    scope = wanted;
    return true;
  }

  // list-data.js as soon as a control is pointed at or focused; the parts the state asks for
  // with it once a filter is chosen, then the state shown (as it is by then).
  function load() {
    window.catalogueParts(["list-data"], function () {
      if (!window.CATALOGUE_PARTS["list-data"] || !active()) return;
      var shown = current();
      if (!shown.names) { list.removeAttribute("aria-busy"); render(shown); return; }
      window.catalogueParts(shown.names, function () { if (active()) load(); });
    });
  }

  // --- Rendering: the same elements as the static pages (templates/_macros.html) -------------------

  var element = window.catalogueElement;
  var entries = null;  // made with tables: window.catalogueEntries(tables, root)

  // The list's first page with the state as its query: where a filtered view lives.
  function address(page) {
    var params = new URLSearchParams();
    ["topic", "venue", "sort"].forEach(function (key) { if (state[key]) params.set(key, state[key]); });
    if (page > 1) params.set("page", String(page));
    var query = params.toString();
    return root + "index.html" + (query ? "?" + query : "");
  }

  function render(shown) {
    var pages = Math.max(1, Math.ceil(shown.total / perPage));
    var first = shown.first;
    list.replaceChildren.apply(list, shown.rows.map(function (row) { return entries.card(row); }));
    if (first) list.setAttribute("start", String(first + 1)); else list.removeAttribute("start");
    if (!shown.total) pagerBox.replaceChildren(element("p", "count", window.catalogueText("no_match_filters")));
    else if (pages > 1) pagerBox.replaceChildren(window.cataloguePager(state.page, pages, address));
    else pagerBox.replaceChildren();
    count.textContent = state.topic || state.venue ? window.catalogueText("shown_of", { shown: shown.total, total: total }) : total;
    pageOf.textContent = pages > 1 ? " · " + window.catalogueText("page_of", { page: state.page, pages: pages }) : "";
    document.dispatchEvent(new Event("catalogue:listed"));
  }

  function restore() {
    list.replaceChildren.apply(list, original.items);
    if (original.start) list.setAttribute("start", original.start); else list.removeAttribute("start");
    pagerBox.replaceChildren.apply(pagerBox, original.pager);
    count.textContent = total;
    pageOf.textContent = original.pageOf;
  }

  // Show the state, and (when asked) put it in the address: a filtered view at the list's first
  // page where the browser allows (over http; a file: page may change only its query), the
  // catalogue's own order back at the static page it was opened on.
  function apply(how) {
    chips.forEach(function (chip) {
      chip.setAttribute("aria-pressed", chip.getAttribute("data-topic") === state.topic ? "true" : "false");
    });
    venueSelect.value = state.venue;
    sortSelect.value = state.sort;
    var target = active() ? address(state.page) : loadedPath;
    if (how) {
      try {
        history[how](null, "", target);
      } catch (error) {
        history[how](null, "", location.pathname + target.slice(target.indexOf("index.html") + "index.html".length));
      }
    }
    var shown = active() ? current() : null;
    if (!shown) restore();
    else if (!shown.names) render(shown);
    else { list.setAttribute("aria-busy", "true"); load(); }
  }

  function readAddress() {
    var params = new URLSearchParams(location.search);
    var known = function (select, value) {
      return Array.prototype.some.call(select.options, function (option) { return option.value === value; });
    };
    state.topic = chips.some(function (chip) { return chip.getAttribute("data-topic") === params.get("topic"); })
      ? params.get("topic") : "";
    state.venue = known(venueSelect, params.get("venue")) ? params.get("venue") : "";
    state.sort = known(sortSelect, params.get("sort")) ? params.get("sort") : "";
    state.page = Math.max(1, parseInt(params.get("page"), 10) || 1);
  }

  chips.forEach(function (chip) {
    chip.setAttribute("role", "button");
    chip.setAttribute("aria-pressed", "false");
    chip.addEventListener("click", function (event) {
      event.preventDefault();
      state.topic = chip.getAttribute("aria-pressed") === "true" ? "" : chip.getAttribute("data-topic");
      state.page = 1;
      apply("replaceState");
    });
  });
  venueSelect.addEventListener("change", function () { state.venue = venueSelect.value; state.page = 1; apply("replaceState"); });
  sortSelect.addEventListener("change", function () { state.sort = sortSelect.value; state.page = 1; apply("replaceState"); });
  pagerBox.addEventListener("click", function (event) {
    var target = event.target.closest && event.target.closest("a[data-page]");
    if (!target || !active()) return;  // the static pager: real pages
    event.preventDefault();
    state.page = Number(target.getAttribute("data-page"));
    apply("pushState");
    if (list.getBoundingClientRect().top < 0) tools.scrollIntoView();
  });
  window.addEventListener("popstate", function () { readAddress(); apply(null); });
  [tools, document.querySelector(".topic-nav")].filter(Boolean).forEach(function (controls) {
    ["pointerover", "focusin", "touchstart"].forEach(function (type) {
      controls.addEventListener(type, load, { once: true, passive: true });
    });
  });

  readAddress();
  if (active()) apply(null);
})();
