// What every script of the site needs, loaded by every page before them: the interface strings,
// the site's addresses, words as the search folds them, copying to the clipboard, the
// derived-title mark, a paper's star and a listed paper's card.

// What every page's scripts read: the interface strings and the site's address patterns, from
// site-data.js (written by the build in the site's language, loaded before this script).
window.catalogueSite = function (part) {
  "use strict";
  return (window.CATALOGUE_SITE || {})[part] || {};
};

// A page's own data for its scripts, <script type="application/json" id="..."> written by the build, and a
// pattern with its {placeholders} filled (one left as written when values lack it).
window.catalogueData = function (id) {
  "use strict";
  var element = document.getElementById(id);
  return element ? JSON.parse(element.textContent) : {};
};

window.catalogueFill = function (pattern, values) {
  "use strict";
  return String(pattern).replace(/\{(\w+)\}/g, function (whole, name) {
    if (!Object.prototype.hasOwnProperty.call(values, name)) return whole;
    return typeof values[name] === "number" ? window.catalogueNumber(values[name]) : values[name];
  });
};

// A whole number with its digits grouped as the page's language groups them, as i18n.py's
// Strings.number does ("10,000").
window.catalogueNumber = (function () {
  "use strict";
  var group = null;  // read once, when first needed
  return function (value) {
    if (group === null) group = String(window.catalogueSite("strings").digit_group);
    return String(value).replace(/\B(?=(\d{3})+$)/g, group);
  };
})();

// The interface strings scripts show, in the page's language: read from site-data.js
// (catalogue/i18n/locales/<language>.yaml, `script`).
// text("results", {count: 3}) picks the plural form by `count` and fills the {placeholders}.
window.catalogueText = (function () {
  "use strict";
  var strings = window.catalogueSite("strings");
  return function (key, values) {
    values = values || {};
    var entry = strings[key];
    if (entry && typeof entry === "object") entry = values.count === 1 && entry.one ? entry.one : entry.other;
    return window.catalogueFill(entry === undefined ? key : entry, values);
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

// The bucket folder of a paper's or author's page, as catalogue/routes.py's bucket() computes it: the
// low byte of the CRC-32 of the slug's UTF-8, as two hex digits.
window.catalogueBucket = (function () {
  "use strict";
  var table = [];
  for (var n = 0; n < 256; n++) {
    var c = n;
    for (var k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320 ^ (c >>> 1) : c >>> 1;
    table.push(c >>> 0);
  }
  return function (slug) {
    var bytes = new TextEncoder().encode(slug);
    var crc = 0xFFFFFFFF;
    for (var i = 0; i < bytes.length; i++) crc = table[(crc ^ bytes[i]) & 0xFF] ^ (crc >>> 8);
    return (((crc ^ 0xFFFFFFFF) >>> 0) & 0xFF).toString(16).padStart(2, "0");
  };
})();

// A site address from the site's root: catalogueRoute("paper", {slug: "x"}) -> "papers/b/x/index.html".
// The patterns come from site-data.js, written by the build from catalogue/routes.py: no script
// types an address of its own.
window.catalogueRoute = (function () {
  "use strict";
  var patterns = window.catalogueSite("routes");
  return function (name, values) {
    if (!Object.prototype.hasOwnProperty.call(patterns, name)) throw new Error("no site address named " + name);
    values = values || {};
    if (patterns[name].indexOf("{bucket}") >= 0) values = Object.assign({bucket: window.catalogueBucket(values.slug)}, values);
    return window.catalogueFill(patterns[name], values);
  };
})();

// Copy text to the clipboard, then call done(); failed() when the browser would not (pages opened
// from disk are not a secure context, so the clipboard API is missing there: a selected hidden
// text area and the copy command do it instead).
window.catalogueCopy = function (content, done, failed) {
  "use strict";
  function bySelection() {
    var area = document.createElement("textarea");
    area.value = content;
    area.setAttribute("readonly", "");
    area.className = "visually-hidden";
    document.body.appendChild(area);
    area.select();
    var copied = false;
    try { copied = document.execCommand("copy"); } catch (error) { copied = false; }
    document.body.removeChild(area);
    if (copied) done(); else failed();
  }
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(content).then(done, bySelection);
  else bySelection();
};

// Words as catalogue/text.py's words() folds them (tests/test_text.py compares the two over the
// corpus): lower case, plurals to singular, and runs of CJK characters (CJK_CHARACTERS there),
// written without spaces, as overlapping two-character pieces (强化学习 -> 强化 化学 学习).
(function () {
  "use strict";
  var CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af";
  var CJK_RUN = new RegExp("[" + CJK + "]+", "g");
  var STARTS_CJK = new RegExp("^[" + CJK + "]");

  function stem(word) {
    if (word.length > 4 && /ies$/.test(word)) return word.slice(0, -3) + "y";
    if (word.length > 4 && /[sxzh]es$/.test(word)) return word.slice(0, -2);
    if (word.length > 3 && /s$/.test(word) && !/ss$/.test(word)) return word.slice(0, -1);
    return word;
  }

  window.catalogueStem = stem;
  window.catalogueWords = function (text) {
    var spaced = text.toLowerCase().replace(CJK_RUN, " $& ");
    var result = [];
    (spaced.match(/[\p{L}\p{N}]+/gu) || []).forEach(function (token) {
      if (!STARTS_CJK.test(token)) {
        result.push(stem(token));
        return;
      }
      for (var i = 0; i < Math.max(1, token.length - 1); i++) result.push(token.slice(i, i + 2));
    });
    return result;
  };
})();

// An element with its class and text; a link.
window.catalogueElement = function (tag, className, text) {
  var made = document.createElement(tag);
  if (className) made.className = className;
  if (text !== undefined) made.textContent = text;
  return made;
};

window.catalogueLink = function (href, text, className) {
  var made = window.catalogueElement("a", className, text);
  made.href = href;
  return made;
};

// A paper's star, hidden until reader.js shows it pressed or not: for the cards the build writes
// (reader.js adds it, from their data-paper) and those made here.
window.catalogueStar = function (id, paper) {
  "use strict";
  var star = window.catalogueElement("button", "star");
  star.type = "button";
  star.hidden = true;
  star.setAttribute("data-paper", id);
  star.setAttribute("aria-pressed", "false");
  star.appendChild(window.catalogueElement("span", "visually-hidden", window.catalogueText("add_to_list", { paper: paper })));
  return star;
};

// Whether a paper's name begins its title ("MIMICause" and "MIMICause: ..."), as a word: its badge
// would repeat it (catalogue/site/views.py's name_begins_title).
window.catalogueNameInTitle = function (name, title) {
  "use strict";
  name = name.toLowerCase();
  title = title.toLowerCase();
  return title.indexOf(name) === 0 && !/^[\p{L}\p{N}]/u.test(title.slice(name.length));
};

// A paper of list-data.js (a row of window.CATALOGUE_LIST: see catalogue/site/data_files.py's
// render_list_data) as a list shows it: the same elements as templates/_macros.html's paper_card
// (and its star), for the home page's filters (filter.js) and the reading list (reader.js).
// window.catalogueEntries(list, root) -> {card: row -> <li>}.
window.catalogueEntries = function (list, root) {
  "use strict";
  var element = window.catalogueElement, link = window.catalogueLink;

  // [name, slug of their address]; list-data.js gives the name alone when the slug follows from it.
  function author(entry) {
    return typeof entry === "string" ? [entry, entry.toLowerCase().replace(/ /g, "-")] : entry;
  }

  function card(row) {
    var item = element("li", "card");
    item.setAttribute("data-paper", row[0]);
    var heading = item.appendChild(element("h2", "card-title"));
    heading.appendChild(link(root + window.catalogueRoute("paper", {slug: row[1]}), row[2]));
    if (row[8] === 1) heading.appendChild(window.catalogueDerivedMark());
    var meta = item.appendChild(element("p", "card-meta"));
    meta.appendChild(window.catalogueStar(row[0], row[3] || row[2]));
    if (row[3] && !window.catalogueNameInTitle(row[3], row[2])) meta.appendChild(element("span", "name", row[3]));
    meta.appendChild(element("span", "venue", list.venues[row[4]][0]));
    if (row[6].length) {
      var authors = item.appendChild(element("p", "card-authors"));
      row[6].forEach(function (entry, at) {
        var named = author(entry);
        if (at) authors.appendChild(document.createTextNode(", "));
        authors.appendChild(link(root + window.catalogueRoute("author", {slug: named[1]}), named[0]));
      });
      if (row[7] > row[6].length) authors.appendChild(document.createTextNode(" " + window.catalogueText("et_al")));
    }
    if (row[5].length) {
      var topics = item.appendChild(element("ul", "topics"));
      row[5].forEach(function (at) {
        var topic = list.topics[at];
        topics.appendChild(element("li")).appendChild(link(root + window.catalogueRoute("topic", {slug: topic[0]}), topic[1]));
      });
    }
    return item;
  }

  return { card: card };
};

// Text for a Markdown citation, as the reading list's export and a paper's page write it: line
// breaks as spaces and control characters gone; punctuation with a meaning in Markdown escaped,
// so that a title cannot end its link or start one; an address with what could end its
// parentheses percent-encoded (the same address).
window.catalogueMarkdown = {
  text: function (text) {
    "use strict";
    return window.catalogueMarkdown.printable(text).replace(/[\\`*_\[\]<]/g, "\\$&");
  },
  url: function (address) {
    "use strict";
    return window.catalogueMarkdown.printable(address).replace(/[ ()<>\[\]]/g, function (character) {
      return "%" + character.charCodeAt(0).toString(16).toUpperCase();
    });
  },
  printable: function (text) {
    "use strict";
    return String(text).replace(/[\t\n\r\f\u2028\u2029]/g, " ").replace(/[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]/g, "");
  }
};

// A list's pager as the static pages make it (site/pagination.py): previous, the page numbers near
// the current one with the first and last, gaps as an ellipsis, next; `address(number)` links each.
window.cataloguePager = (function () {
  "use strict";
  var REACH = 2;  // page numbers on each side of the current one, as site/pagination.py's PAGER_REACH

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

  return function (page, pages, address) {
    var element = window.catalogueElement, link = window.catalogueLink, text = window.catalogueText;
    var nav = element("nav", "list-pager");
    nav.setAttribute("aria-label", text("pages"));
    var step = function (number, className, label, rel) {
      var made = nav.appendChild(link(address(number), label, className));
      made.rel = rel;
      made.setAttribute("data-page", number);
    };
    if (page > 1) step(page - 1, "prev", text("previous_page"), "prev");
    var items = nav.appendChild(element("ol"));
    numbers(page, pages).forEach(function (number) {
      var item = items.appendChild(element("li"));
      if (!number) { item.appendChild(element("span", "gap", "\u2026")); return; }
      var made = item.appendChild(link(address(number), String(number)));
      made.setAttribute("data-page", number);
      if (number === page) made.setAttribute("aria-current", "page");
    });
    if (page < pages) step(page + 1, "next", text("next_page"), "next");
    return nav;
  };
})();
