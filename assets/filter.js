// Home page: the topic chips, Venue and Sort act on the whole catalogue, not only the page shown.
// The catalogue comes from list-data.js (a plain script, so it loads from disk too), fetched when a
// control is first pointed at or used; the results are rendered here, a page at a time, as cards
// (which the compact view, assets/listview.js, shows as lines).
// The address keeps the filters (?topic=&venue=&sort=&page=), so a shared link opens them again.
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
  var REACH = 2;  // page numbers on each side of the current one, as site/pagination.py's PAGER_REACH
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
  var data = null;  // list-data.js, prepared
  var loading = false;
  tools.hidden = false;

  function active() { return Boolean(state.topic || state.venue || state.sort); }

  // --- The catalogue: rows of list-data.js, with each sort order made once --------------------

  function prepare(raw) {
    var prepared = { papers: raw.papers, venues: raw.venues, topics: raw.topics, orders: {}, venueAt: {}, topicAt: {} };
    raw.venues.forEach(function (venue, at) { prepared.venueAt[venue[0]] = at; });
    raw.topics.forEach(function (topic, at) { prepared.topicAt[topic[0]] = at; });
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

  function ready() {
    if (!data && window.CATALOGUE_LIST) {
      data = prepare(window.CATALOGUE_LIST);
      entries = window.catalogueEntries(data, root);
    }
    return Boolean(data);
  }

  // list-data.js, fetched once: by the first filter, or as soon as a control is pointed at or
  // focused, so that it is usually there when the choice is made.
  function load() {
    if (ready() || loading) return;
    loading = true;
    var script = document.createElement("script");
    script.src = root + "list-data.js";
    script.onload = function () {
      list.removeAttribute("aria-busy");
      if (ready() && active()) render();
    };
    document.head.appendChild(script);
  }

  // --- Rendering: the same elements as the static pages (templates/_macros.html) -------------------

  var element = window.catalogueElement, link = window.catalogueLink;
  var entries = null;  // made once list-data.js is loaded: window.catalogueEntries(data, root)

  function numbers(page, pages) {
    var shown = [];
    for (var number = 1; number <= pages; number += 1) {
      if (number === 1 || number === pages || Math.abs(number - page) <= REACH) shown.push(number);
    }
    var withGaps = [];
    shown.forEach(function (number) {
      var last = withGaps[withGaps.length - 1];
      if (last && number - last > 1) withGaps.push(number - last > 2 ? null : number - 1);  // a gap of one page shows it
      withGaps.push(number);
    });
    return withGaps;
  }

  function pager(page, pages) {
    var nav = element("nav", "list-pager");
    nav.setAttribute("aria-label", window.catalogueText("pages"));
    var step = function (number, className, label, rel) {
      var made = nav.appendChild(link(address(number), label, className));
      made.rel = rel;
      made.setAttribute("data-page", number);
    };
    if (page > 1) step(page - 1, "prev", window.catalogueText("previous_page"), "prev");
    var items = nav.appendChild(element("ol"));
    numbers(page, pages).forEach(function (number) {
      var item = items.appendChild(element("li"));
      if (!number) { item.appendChild(element("span", "gap", "\u2026")); return; }
      var made = item.appendChild(link(address(number), String(number)));
      made.setAttribute("data-page", number);
      if (number === page) made.setAttribute("aria-current", "page");
    });
    if (page < pages) step(page + 1, "next", window.catalogueText("next_page"), "next");
    return nav;
  }

  // The list's first page with the state as its query: where a filtered view lives.
  function address(page) {
    var params = new URLSearchParams();
    ["topic", "venue", "sort"].forEach(function (key) { if (state[key]) params.set(key, state[key]); });
    if (page > 1) params.set("page", String(page));
    var query = params.toString();
    return root + "index.html" + (query ? "?" + query : "");
  }

  function render() {
    var found = results();
    var pages = Math.max(1, Math.ceil(found.length / perPage));
    state.page = Math.min(state.page, pages);
    var first = (state.page - 1) * perPage;
    list.replaceChildren.apply(list, found.slice(first, first + perPage).map(function (at) { return entries.card(data.papers[at]); }));
    if (first) list.setAttribute("start", String(first + 1)); else list.removeAttribute("start");
    if (!found.length) pagerBox.replaceChildren(element("p", "count", window.catalogueText("no_match_filters")));
    else if (pages > 1) pagerBox.replaceChildren(pager(state.page, pages));
    else pagerBox.replaceChildren();
    count.textContent = state.topic || state.venue ? window.catalogueText("shown_of", { shown: found.length, total: total }) : total;
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
    if (!active()) restore();
    else if (ready()) render();
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
