// Search on every page. Hosted, it uses Pagefind's index (site/pagefind/); opened from disk,
// where browsers block Pagefind's module and WebAssembly, it uses the offline index
// (search-index.js and its parts, plain scripts) with each paper's name, title, authors, topics
// and key terms. Both give the same results layout, with a star to keep a result in the reading
// list (assets/reader.js). The engine loads when a search box gets focus. The header box shows
// results as you type; search.html adds filters, sorting, results 30 at a time up to all matches
// ("Show 30 more") and an address (?q=&topic=&venue=&year=&sort=) that can be shared. Paper
// pages reached from a result highlight the query (?highlight=).
(function () {
  "use strict";
  var root = document.documentElement.getAttribute("data-root") || "";
  var QUICK_LIMIT = 6;
  var PAGE_SIZE = 20;  // results the search page shows at first, and adds with each "Show more": each is a request
  var EXCERPT_WORDS = 30;  // as Pagefind's excerpts
  var SHOWN_AUTHORS = 3;  // as the cards (catalogue/site/pagination.py's CARD_AUTHORS), then "et al."
  var MAX_DROPPED = 6;  // a longer query is not tried without each of its words
  var text = window.catalogueText;

  // --- Engines: search(query, {topic, venue, year, author, sort}) -> Promise<found> ------------
  // found.raw is the number of the engine's answers, found.total that of matches (the answers
  // less the near misses found so far among those read); found.page(from, to) -> Promise<[result]>
  // gives the matches among answers from..to, in ranked order, loading what they need only then.

  var engineLoading = null;

  function engine() {
    if (!engineLoading) {
      var hosted = location.protocol === "http:" || location.protocol === "https:";
      engineLoading = (hosted ? pagefindEngine() : Promise.reject(new Error("file")))
        .catch(fallbackEngine);
    }
    return engineLoading;
  }

  function siteUrl(path) {
    return new URL((root || "./") + path, document.baseURI);
  }

  // Pagefind's index is a few bundles (each page in one by a hash of its address), listed in
  // pagefind/shards.json with a vocabulary bundle (one page of words per shard, filtered as
  // vocabulary:<shard>). The vocabulary's pagefind.js loads and the shards are merged into it,
  // each tagged shard:<name>.
  function pagefindEngine() {
    var listed = fetch(siteUrl("pagefind/shards.json"), { cache: "no-cache" }).then(function (response) {
      if (!response.ok) throw new Error("pagefind/shards.json: " + response.status);
      return response.json();
    });
    // The vocabulary's runtime (catalogue/search/index.py's VOCABULARY) loads meanwhile.
    var runtime = import(siteUrl("pagefind/vocabulary/pagefind.js").href);
    return Promise.all([listed, runtime]).then(function (loaded) {
      var shards = loaded[0];
      var pagefind = loaded[1];
      var baseUrl = siteUrl("").pathname;
      return Promise.resolve(pagefind.options({ baseUrl: baseUrl })).then(function () {
        return Promise.all(shards.bundles.map(function (bundle) {
          return pagefind.mergeIndex(siteUrl("pagefind/" + bundle.path).pathname,
                                     { baseUrl: baseUrl, mergeFilter: { shard: bundle.name } });
        }));
      }).then(function () {
        return pagefind.init();  // every bundle's entry and metadata, now rather than at the first search
      }).then(function () {
        return { name: "pagefind", search: function (query, choice) {
          return searchPagefind(pagefind, shards, query, choice);
        } };
      });
    });
  }

  // As one index over every page would: the shards whose words match the whole query (an index
  // lacking a word falls back to near misses), then the results of those shards alone. An exact
  // search ("...") has no near misses, and no phrase would match a page of words.
  function searchPagefind(pagefind, shards, query, choice) {
    var bundles = shards.bundles;
    var everyShard = bundles.map(function (bundle) { return bundle.name; });
    var exact = /^\s*".+"\s*$/.test(query);
    var matchingShards = query && !exact && bundles.length > 1 ? pagefind.search(query, { filters: { vocabulary: { any: everyShard } } }).then(function (found) {
      var counts = (found && found.filters.vocabulary) || {};
      return everyShard.filter(function (name) { return counts[name] > 0; });
    }) : Promise.resolve(everyShard);
    var filtered = function (matching) {
      var filters = { shard: { any: matching } };
      if (choice.topic) filters.topic = choice.topic;
      if (choice.venue) filters.venue = choice.venue;
      if (choice.year) filters.year = choice.year;
      if (choice.author) filters.author = choice.author;
      return filters;
    };
    var ranked = function (matching) {
      if (!matching.length) return Promise.resolve([]);
      var filters = filtered(matching);
      if (choice.sort) {
        // Merged indexes rank by score whatever the sort (and the pages carry no sort, which would
        // cost every search bytes for each page): so search one year at a time, in order.
        var years = shards.years.filter(function (year) { return !choice.year || year === choice.year; }).sort(function (a, b) { return choice.sort === "oldest" ? a - b : b - a; });
        return Promise.all(years.map(function (year) {
          return pagefind.search(query || null, { filters: Object.assign({}, filters, { year: year }) });
        })).then(function (each) {
          return [].concat.apply([], each.map(function (found) { return found ? found.results : []; }));
        });
      }
      return pagefind.search(query || null, { filters: filters }).then(function (found) { return found ? found.results : []; });
    };
    // Every shard is searched meanwhile: most queries match in all of them, and that answer is kept.
    var everywhere = choice.sort ? null : ranked(everyShard);
    return matchingShards.then(function (matching) {
      return everywhere && matching.length === everyShard.length ? everywhere : ranked(matching);
    }).then(function (results) {
      var loaded = [];  // each answer's fragment, loaded once
      var missed = {};  // the near misses among the answers read
      var found = { raw: results.length, total: results.length, page: function (from, to) {
        if (!found.raw) return Promise.resolve([]);
        return Promise.all(results.slice(from, to).map(function (result, at) {
          return loaded[from + at] || (loaded[from + at] = result.data());
        })).then(function (pages) {
          var kept = [];
          pages.forEach(function (page, at) {
            var result = pagefindResult(page);
            if (matchesEnoughWords(result.text, query)) kept.push(result);
            else missed[from + at] = true;
          });
          found.total = results.length - Object.keys(missed).length;
          return from === 0 && !choice.sort ? byTitlePhrase(kept, query) : kept;
        });
      } };
      // A query whose words are nowhere (a typo, "zzqqxx") gets Pagefind's near misses: no match
      // when none of the first answers matches (as many as the page shows: loaded once).
      var probe = choice.probe || PAGE_SIZE;
      return found.page(0, probe).then(function (top) {
        if (!top.length) found.total = found.raw = 0;
        return found;
      });
    });
  }

  // Pagefind answers pages with any of the query's words, and with a shorter prefix of a word
  // no indexed word begins with. A result is kept when at least half the query's words (as the
  // offline index asks) each begin one of its words with their first half (all of a short word),
  // which a stem keeps and a near miss lacks. Words of scripts without spaces between words are
  // left to Pagefind.
  function matchesEnoughWords(content, query) {
    var wanted = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) || [];
    return wanted.length - missingWords(content, wanted).length >= Math.ceil(wanted.length / 2);
  }

  // The words (lower case) of which the content has none.
  function missingWords(content, wanted) {
    var own = (content || "").toLowerCase().match(/[\p{L}\p{N}]+/gu) || [];
    return wanted.filter(function (word) {
      if (/[^a-z0-9\u00c0-\u024f]/.test(word)) return false;
      var head = word.length <= 4 ? word : word.slice(0, Math.max(4, Math.ceil(word.length / 2)));
      return !own.some(function (token) { return token.indexOf(head) === 0; });
    });
  }

  // The query's words no result has (a typo among words that found papers): a spelling is offered.
  function unmatchedWords(results, query) {
    var wanted = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) || [];
    return results.reduce(function (left, result) { return missingWords(result.text, left); }, wanted);
  }

  // A query that is a paper's title, or a run of its words, finds that paper first: results whose
  // title holds the query as a phrase come first, the whole title before a part of it; the rest
  // keep their order.
  function byTitlePhrase(results, query) {
    var phrase = plainWords(query);
    if (phrase.split(" ").length < 2) return results;
    var rank = function (result) {
      var title = plainWords(result.title);
      if (title === phrase) return 0;
      return (" " + title + " ").indexOf(" " + phrase + " ") >= 0 ? 1 : 2;
    };
    return results.map(function (result, at) { return { result: result, rank: rank(result), at: at }; })
      .sort(function (a, b) { return a.rank - b.rank || a.at - b.at; })
      .map(function (entry) { return entry.result; });
  }

  function plainWords(text) {
    return ((text || "").toLowerCase().match(/[\p{L}\p{N}]+/gu) || []).join(" ");
  }

  function pagefindResult(page) {
    var filters = page.filters || {};
    var meta = page.meta || {};
    var authorPages = (meta.authors || "").split(" ").filter(Boolean);  // the authors' slugs, in order
    return {
      url: page.url.replace(/\/$/, "/index.html"),
      id: meta.id || "",
      name: meta.name || "",
      title: meta.title || page.url,
      derived: Boolean(meta.derived),
      venue: [].concat(filters.venue || [], filters.year || []).join(" "),
      topics: filters.topic || [],
      authors: filters.author || [],
      authorPages: authorPages.length === (filters.author || []).length ? authorPages : [],
      text: [meta.title, meta.name, page.content].join(" "),
      excerpt: abstractExcerpt(page)
    };
  }

  // Pagefind's excerpt is the stretch of the indexed text with the most weight of matches, which
  // is the title or the name whenever they match. The paper page marks where its abstract begins
  // and ends in that text (the anchors #abstract and #facts): the excerpt is the stretch of the
  // abstract with the most matches, as Pagefind chooses it, or the abstract's beginning.
  function abstractExcerpt(page) {
    var start = -1;
    var end = -1;
    (page.anchors || []).forEach(function (anchor) {
      if (anchor.id === "abstract") start = anchor.location;
      if (anchor.id === "facts") end = anchor.location;
    });
    if (start < 0) return page.excerpt || "";
    var content = page.raw_content || "";
    var segmented = content.indexOf("\u200B") >= 0;  // Chinese, Japanese: words cut by the indexer
    var all = segmented ? content.split("\u200B") : content.split(/[\r\n\s]+/g);
    if (end < start) end = all.length;
    var weights = {};
    var marked = {};
    (page.weighted_locations || []).forEach(function (word) {
      if (word.location < start || word.location >= end) return;
      weights[word.location] = (weights[word.location] || 0) + word.balanced_score;
      marked[word.location] = true;
    });
    // The EXCERPT_WORDS words with the most weight of matches, the matches in their middle.
    var from = start;
    var best = 0;
    var sum = 0;
    var last = -1;
    for (var at = start; at < end; at++) {
      sum += (weights[at] || 0) - (at - EXCERPT_WORDS >= start ? weights[at - EXCERPT_WORDS] || 0 : 0);
      if (sum > best) { best = sum; last = at; }
    }
    if (best > 0) {
      var first = last;
      for (var back = last; back > last - EXCERPT_WORDS && back >= start; back--) if (weights[back]) first = back;
      from = first - Math.floor((EXCERPT_WORDS - (last - first + 1)) / 2);
      from = Math.max(start, Math.min(from, end - EXCERPT_WORDS));
    }
    var to = Math.min(end, from + EXCERPT_WORDS);
    var words = [];
    for (var i = from; i < to; i++) {
      if (all[i] !== undefined) words.push(marked[i] ? "<mark>" + all[i] + "</mark>" : all[i]);
    }
    var joined = words.join(segmented ? "" : " ").trim();
    if (!joined) return "";
    return (from > start ? "… " : "") + joined + (to < end ? " …" : "");
  }

  // The offline index (catalogue/search/offline.py): search-index.js names its parts, part n a
  // script that sets CATALOGUE_SEARCH_PART_<n> to its papers; all load at once, as script tags
  // (a page opened from disk may run scripts, not fetch files).
  function fallbackEngine() {
    return loadScript("search-index.js").then(function () {
      var index = window.CATALOGUE_SEARCH;
      return Promise.all(index.parts.map(loadScript)).then(function () {
        var rows = [];
        index.parts.forEach(function (path, at) {
          var part = window["CATALOGUE_SEARCH_PART_" + (at + 1)];
          if (!part) throw new Error(path + " holds no papers");
          rows = rows.concat(part);
        });
        return fallbackIndex(index, rows);
      });
    });
  }

  function loadScript(path) {
    return new Promise(function (resolve, reject) {
      var script = document.createElement("script");
      script.src = root + path;
      script.onload = resolve;
      script.onerror = function () { reject(new Error(path + " is missing")); };
      document.head.appendChild(script);
    });
  }

  function fallbackIndex(index, rows) {
    var papers = rows.map(function (row) {
      var title = row[2];
      var name = row[1] || title.split(":")[0];
      var topics = row[4].map(function (n) { return index.topics[n]; });
      var authors = row[6] || [];
      var slugs = row[9] || [];
      return {
        slug: row[0], name: name, title: title, venue: index.venues[row[3]], topics: topics, authors: authors,
        id: row[7] || "", derived: row[8] === 1,
        authorPages: authors.map(function (name, at) { return slugs[at] || plainSlug(name); }),
        nameWords: words(name.replace(/-/g, " ")).concat(words(name.replace(/-/g, ""))),
        titleWords: words(title), plainTitle: " " + plainWords(title) + " ", authorWords: words(authors.join(" ")), topicWords: words(topics.join(" ")),
        terms: row[5].split(" ")
      };
    });
    var stopwords = index.stopwords.split(" ");
    return { name: "fallback", search: function (query, choice) {
      var found = searchFallback(papers, query, choice, stopwords);
      return Promise.resolve({ raw: found.length, total: found.length, page: function (from, to) {
        return Promise.resolve(found.slice(from, to));
      } });
    } };
  }

  var words = window.catalogueWords, stem = window.catalogueStem;

  // Ranked by how many query words a paper matches, then by where: the exact name first, then
  // words of the name, the title, the authors, the topics and the key terms. At least half the words must match.
  function searchFallback(papers, query, choice, stopwords) {
    var wanted = words(query).filter(function (word) { return stopwords.indexOf(word) < 0; });
    var needed = Math.max(1, Math.ceil(wanted.length / 2));
    var exact = query.trim().toLowerCase();
    var phrase = plainWords(query);
    var scored = [];
    papers.forEach(function (paper, order) {
      if (!matchesChoice(paper, choice)) return;
      var score = paper.name.toLowerCase() === exact ? 100 : 0;
      if (phrase.indexOf(" ") > 0) score += paper.plainTitle === " " + phrase + " " ? 60 : paper.plainTitle.indexOf(" " + phrase + " ") >= 0 ? 40 : 0;
      var matched = [];
      var hits = 0;
      wanted.forEach(function (word) {
        var best = Math.max(field(paper.nameWords, word, 30), field(paper.titleWords, word, 10),
                            field(paper.authorWords, word, 8), field(paper.topicWords, word, 5),
                            field(paper.terms, word, 3));
        if (!best) return;
        hits += 1;
        score += best;
        if (field(paper.terms, word, 3)) matched.push(word);
      });
      if (wanted.length ? hits >= needed : !query.trim()) {
        scored.push({ hits: hits, score: score, order: order, paper: paper, matched: matched });
      }
    });
    scored.sort(function (a, b) {
      if (choice.sort) {
        var years = yearOf(a.paper) - yearOf(b.paper);
        if (years) return choice.sort === "oldest" ? years : -years;
      }
      return b.hits - a.hits || b.score - a.score || a.order - b.order;
    });
    return scored.map(function (hit) {
      var paper = hit.paper;
      return {
        url: siteUrl(window.catalogueRoute("paper", {slug: paper.slug})).href, id: paper.id, name: paper.name,
        title: paper.title, derived: paper.derived, venue: paper.venue, topics: paper.topics, authors: paper.authors,
        authorPages: paper.authorPages,
        text: [paper.name, paper.title, paper.authors.join(" "), paper.topics.join(" "), paper.terms.join(" ")].join(" "),
        excerpt: hit.matched.length ? text("key_terms") + " <mark>" + hit.matched.join("</mark>, <mark>") + "</mark>" : ""
      };
    });
  }

  // A word matches a field word exactly (full points) or, when typed as a prefix, half.
  function field(list, word, points) {
    var prefix = 0;
    for (var i = 0; i < list.length; i++) {
      if (list[i] === word) return points;
      if (word.length >= 3 && list[i].indexOf(word) === 0) prefix = points / 2;
    }
    return prefix;
  }

  function yearOf(paper) {
    var match = /(\d{4})$/.exec(paper.venue || "");
    return match ? Number(match[1]) : 0;
  }

  function matchesChoice(paper, choice) {
    var venue = (paper.venue || "").replace(/\s*\d{4}$/, "");
    return (!choice.topic || paper.topics.indexOf(choice.topic) >= 0) &&
      (!choice.venue || venue === choice.venue) && (!choice.year || String(yearOf(paper)) === choice.year) &&
      (!choice.author || paper.authors.some(function (name) { return authorKey(name) === authorKey(choice.author); }));
  }

  // An author's slug when the offline index gives none (catalogue/search/offline.py's plain_slug).
  function plainSlug(name) {
    return authorKey(name).split(" ").join("-");
  }

  // As catalogue/authors.py's author_key: two spellings equal once folded are one author.
  function authorKey(name) {
    return name.normalize("NFC").toLowerCase().split(/\s+/).filter(Boolean).join(" ");
  }

  // --- Rendering: one layout for both engines ----------------------------------------------

  function renderResult(result, query, headingTag) {
    var item = document.createElement("li");
    item.className = "result";
    var link = document.createElement("a");
    link.className = "result-link";
    link.href = result.url + (query ? "?highlight=" + encodeURIComponent(query) : "");
    link.textContent = result.title;
    link.dir = "auto";  // a title in another direction never reorders the text around it
    var heading = document.createElement(headingTag);
    heading.className = "result-title";
    heading.appendChild(link);
    if (result.derived) heading.appendChild(window.catalogueDerivedMark());
    var meta = document.createElement("p");
    meta.className = "result-meta";
    if (result.id) meta.appendChild(starButton(result));
    if (result.name && !window.catalogueNameInTitle(result.name, result.title)) {
      var name = document.createElement("span");
      name.className = "name";
      name.dir = "auto";
      name.textContent = result.name;
      meta.appendChild(name);
    }
    meta.appendChild(document.createTextNode([result.venue].concat(result.topics).filter(Boolean).join(" · ")));
    item.appendChild(heading);
    if (result.authors.length) {
      var authors = document.createElement("p");
      authors.className = "result-authors";
      appendAuthors(authors, result);
      item.appendChild(authors);
    }
    item.appendChild(meta);
    if (result.excerpt) {
      var excerpt = document.createElement("p");
      excerpt.className = "result-excerpt";
      appendMarked(excerpt, result.excerpt);
      item.appendChild(excerpt);
    }
    return item;
  }

  // As templates/_macros.html's star: assets/reader.js keeps it (a click, or s on the result).
  function starButton(result) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "star";
    button.setAttribute("data-paper", result.id);
    button.setAttribute("aria-pressed", "false");
    var label = document.createElement("span");
    label.className = "visually-hidden";
    label.textContent = text("star_add", { paper: result.name || result.title });
    button.appendChild(label);
    return button;
  }

  // New stars: reader.js shows whether each paper is in the list.
  function starsAdded() {
    document.dispatchEvent(new CustomEvent("catalogue:stars"));
  }

  // The first SHOWN_AUTHORS names, each a link to its author's section (their bucket's page).
  function appendAuthors(parent, result) {
    result.authors.slice(0, SHOWN_AUTHORS).forEach(function (name, at) {
      if (at) parent.appendChild(document.createTextNode(", "));
      var slug = result.authorPages[at];
      var node = document.createElement(slug ? "a" : "span");
      if (slug) node.href = root + window.catalogueRoute("author", { slug: slug });
      node.dir = "auto";
      node.textContent = name;
      parent.appendChild(node);
    });
    if (result.authors.length > SHOWN_AUTHORS) parent.appendChild(document.createTextNode(" " + text("et_al")));
  }

  // Excerpts mark matches with <mark>; everything else is inserted as text, never as HTML.
  function appendMarked(parent, marked) {
    marked.split(/(<mark>.*?<\/mark>)/).forEach(function (part) {
      var match = /^<mark>(.*)<\/mark>$/.exec(part);
      var node = match ? document.createElement("mark") : document.createTextNode(decode(part));
      if (match) node.textContent = decode(match[1]);
      parent.appendChild(node);
    });
  }

  function decode(text) {
    var area = document.createElement("textarea");
    area.innerHTML = text;
    return area.value;
  }

  // --- No match: a way forward --------------------------------------------------------------
  // The query without one of its words (each that leaves results, with their count), and the query
  // with each unknown word spelled as the closest known word of the catalogue's titles (the terms
  // of search-index.js, the most frequent first: within one edit for a short word, two for a
  // longer one), when that finds papers.

  function wayForward(active, query, chosen, found) {
    var parts = query.split(/\s+/).filter(Boolean);
    var dropped = found || parts.length < 2 || parts.length > MAX_DROPPED ? Promise.resolve([]) : Promise.all(parts.map(function (_, at) {
      var shorter = parts.slice(0, at).concat(parts.slice(at + 1)).join(" ");
      return active.search(shorter, probing(chosen)).then(function (found) { return { query: shorter, count: found.total }; });
    })).then(function (all) { return all.filter(function (one) { return one.count > 0; }); });
    var spelled = knownTerms().then(function (terms) {
      var fixed = parts.map(function (part) {
        var word = part.toLowerCase();
        return /^[a-z]{4,}$/.test(word) && !terms.has[word] ? closest(word, terms.list) || part : part;
      }).join(" ");
      if (fixed === parts.join(" ")) return null;
      return active.search(fixed, probing(chosen)).then(function (found) { return found.total ? { query: fixed, count: found.total } : null; });
    }).catch(function () { return null; });
    return Promise.all([spelled, dropped]);
  }

  // A search only counted: one result read to tell a match from near misses.
  function probing(chosen) {
    return Object.assign({}, chosen, { probe: 1 });
  }

  var termsLoading = null;

  function knownTerms() {
    if (!termsLoading) {
      termsLoading = (window.CATALOGUE_SEARCH ? Promise.resolve() : loadScript("search-index.js")).then(function () {
        var list = (window.CATALOGUE_SEARCH.terms || "").split(" ").filter(Boolean);
        var has = Object.create(null);
        list.forEach(function (term) { has[term] = true; });
        return { list: list, has: has };
      });
    }
    return termsLoading;
  }

  // The first most frequent term nearest to word (optimal string alignment distance).
  function closest(word, list) {
    var most = word.length <= 5 ? 1 : 2;
    var best = null;
    var bestDistance = most + 1;
    for (var i = 0; i < list.length && bestDistance > 1; i++) {
      var term = list[i];
      if (Math.abs(term.length - word.length) >= bestDistance) continue;
      var distance = edits(word, term);
      if (distance < bestDistance) { best = term; bestDistance = distance; }
    }
    return best;
  }

  function edits(a, b) {
    var rows = [];
    for (var i = 0; i <= a.length; i++) {
      rows.push([i]);
      for (var j = 1; j <= b.length; j++) {
        if (i === 0) { rows[0].push(j); continue; }
        var cost = a[i - 1] === b[j - 1] ? 0 : 1;
        var value = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, rows[i - 2][j - 2] + 1);
        rows[i].push(value);
      }
    }
    return rows[a.length][b.length];
  }

  function searchLink(query, count) {
    var link = document.createElement("a");
    var params = new URLSearchParams(location.search);
    params.set("q", query);
    link.href = root + window.catalogueRoute("search") + "?" + params.toString();
    link.textContent = count ? text("suggestion_count", { query: query, count: count }) : query;
    return link;
  }

  function showWayForward(suggest, spelled, dropped) {
    var parts = [];
    if (spelled) parts.push([text("did_you_mean"), [searchLink(spelled.query, spelled.count)]]);
    if (dropped.length) parts.push([text("without_a_word"), dropped.map(function (one) { return searchLink(one.query, one.count); })]);
    suggest.replaceChildren();
    parts.forEach(function (part) {
      var line = document.createElement("span");
      line.className = "suggestion";
      line.appendChild(document.createTextNode(part[0] + " "));
      part[1].forEach(function (link, at) {
        if (at) line.appendChild(document.createTextNode(text("list_separator")));
        line.appendChild(link);
      });
      suggest.appendChild(line);
    });
    suggest.hidden = !parts.length;
  }

  // --- The header box on every page: results as you type --------------------------------

  // The panel of results and the hint that explains it, made here: they serve only this script.
  var quickInput = document.getElementById("site-search");
  var quickPanel = quickInput && makeQuickPanel();
  var quickRun = 0;

  function makeQuickPanel() {
    var panel = document.createElement("div");
    panel.className = "quick-results";
    panel.id = "site-search-results";
    panel.hidden = true;
    var hint = document.createElement("span");
    hint.id = "site-search-hint";
    hint.className = "visually-hidden";
    hint.textContent = text("search_hint");
    quickInput.setAttribute("aria-controls", panel.id);
    quickInput.setAttribute("aria-describedby", hint.id);
    quickInput.form.appendChild(hint);
    quickInput.form.appendChild(panel);
    return panel;
  }

  function quickSearch() {
    var query = quickInput.value.trim();
    var run = ++quickRun;
    if (!query) { quickPanel.hidden = true; return; }
    engine().then(function (active) { return active.search(query, { probe: QUICK_LIMIT }); }).then(function (found) {
      return found.page(0, QUICK_LIMIT);
    }).then(function (results) {
      if (run !== quickRun) return;
      var list = document.createElement("ol");
      results.forEach(function (result) { list.appendChild(renderResult(result, query, "p")); });
      var more = document.createElement("a");
      more.className = "quick-more";
      more.href = root + window.catalogueRoute("search") + "?q=" + encodeURIComponent(query);
      more.textContent = results.length ? text("all_results") : text("no_quick_matches");
      quickPanel.replaceChildren(list, more);
      quickPanel.hidden = false;
      starsAdded();
    });
  }

  function moveFocus(step) {
    var links = Array.prototype.slice.call(quickPanel.querySelectorAll(".result-link, .quick-more"));
    var index = links.indexOf(document.activeElement) + step;
    if (index < 0) return quickInput.focus();
    if (links[index]) links[index].focus();
  }

  if (quickInput && quickPanel) {
    quickInput.addEventListener("focus", engine);  // loading while the reader types their first word
    quickInput.addEventListener("input", debounce(quickSearch, 120));
    quickInput.form.addEventListener("keydown", function (event) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        if (!quickPanel.hidden) moveFocus(event.key === "ArrowDown" ? 1 : -1);
      } else if (event.key === "Escape") {
        quickInput.value = "";
        quickPanel.hidden = true;
        quickInput.focus();
      }
    });
    document.addEventListener("click", function (event) {
      if (!quickInput.form.contains(event.target)) quickPanel.hidden = true;
    });
  }

  // "/" focuses search from anywhere but a text field.
  document.addEventListener("keydown", function (event) {
    var target = event.target;
    var typing = target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
    if (event.key !== "/" || typing || event.ctrlKey || event.metaKey || event.altKey) return;
    var box = document.getElementById("search-input") || quickInput;
    if (!box) return;
    event.preventDefault();
    box.focus();
    box.select();
  });

  function debounce(action, wait) {
    var timer = null;
    return function () { clearTimeout(timer); timer = setTimeout(action, wait); };
  }

  // --- search.html: filters, sorting, more results and a shareable address -------------------

  var pageInput = document.getElementById("search-input");
  var resultsList = document.getElementById("search-results");
  var statusLine = document.getElementById("search-status");
  var moreButton = document.getElementById("search-more");
  var suggestLine = document.getElementById("search-suggest");
  var controls = { topic: "filter-topic", venue: "filter-venue", year: "filter-year", sort: "sort" };
  var authorFilter = document.getElementById("filter-author");
  var chosenAuthor = "";  // from the address (an author's page links here): the name their page shows
  var pageRun = 0;
  var shown = null;  // the search on show: {found, query, count of results rendered, run}

  function choice() {
    var chosen = {};
    Object.keys(controls).forEach(function (key) { chosen[key] = document.getElementById(controls[key]).value; });
    chosen.author = chosenAuthor;
    return chosen;
  }

  function showAuthor(name) {
    chosenAuthor = name;
    authorFilter.hidden = !name;
    authorFilter.querySelector(".chip").textContent = name;
  }

  function resultCount(count, total, query) {
    var results = text("results", { count: total });
    if (count < total) results = text("shown_of", { shown: count, total: results });
    return query ? text("results_for", { results: results, query: query }) : results;
  }

  function noMatch(query, filtered) {
    return text("no_match" + (query ? "_query" : "") + (filtered ? "_filters" : ""), { query: query });
  }

  function keepAddress(query, chosen) {
    var params = new URLSearchParams();
    if (query) params.set("q", query);
    Object.keys(chosen).forEach(function (key) { if (chosen[key]) params.set(key, chosen[key]); });
    var search = params.toString();
    history.replaceState(null, "", location.pathname + (search ? "?" + search : ""));
  }

  function pageSearch() {
    var query = pageInput.value.trim();
    var chosen = choice();
    var run = ++pageRun;
    keepAddress(query, chosen);
    var filtered = chosen.topic || chosen.venue || chosen.year || chosen.author;
    if (!query && !filtered) {
      shown = null;
      resultsList.replaceChildren();
      resultsList.dataset.query = "";
      statusLine.textContent = "";
      suggestLine.hidden = true;
      moreButton.hidden = true;
      return;
    }
    engine().then(function (active) {
      return active.search(query, chosen).then(function (found) {
        return found.page(0, PAGE_SIZE).then(function (results) {
          if (run !== pageRun) return;
          shown = { found: found, query: query, next: PAGE_SIZE, count: results.length, run: run };
          resultsList.replaceChildren.apply(resultsList, results.map(function (r) { return renderResult(r, query, "h2"); }));
          resultsList.dataset.engine = active.name;
          resultsList.dataset.query = query;
          statusLine.textContent = results.length ? resultCount(results.length, found.total, query) : noMatch(query, filtered);
          suggestLine.hidden = true;
          resultsList.dataset.suggested = "";
          offerMore();
          starsAdded();
          if (query && (!results.length || unmatchedWords(results, query).length)) {
            wayForward(active, query, chosen, results.length > 0).then(function (found) {
              if (run !== pageRun) return;
              showWayForward(suggestLine, found[0], found[1]);
              resultsList.dataset.suggested = query;
            });
          }
        });
      });
    }).catch(function () {
      statusLine.textContent = text("unavailable");
    });
  }

  // The next PAGE_SIZE results, added below; focus moves to the first of them.
  function showMore() {
    var search = shown;
    if (!search || search.next >= search.found.raw) return;
    moreButton.disabled = true;
    search.next += PAGE_SIZE;
    search.found.page(search.next - PAGE_SIZE, search.next).then(function (results) {
      moreButton.disabled = false;
      if (search !== shown || search.run !== pageRun) return;
      var items = results.map(function (r) { return renderResult(r, search.query, "h2"); });
      items.forEach(function (item) { resultsList.appendChild(item); });
      search.count += results.length;
      statusLine.textContent = resultCount(search.count, search.found.total, search.query);
      offerMore();
      starsAdded();
      if (items.length) items[0].querySelector(".result-link").focus();
    });
  }

  function offerMore() {
    var left = shown ? Math.min(shown.found.raw - shown.next, shown.found.total - shown.count) : 0;
    moreButton.hidden = left <= 0;
    if (left > 0) moreButton.textContent = text("show_more", { count: Math.min(PAGE_SIZE, left) });
  }

  if (pageInput && resultsList) {
    if (location.protocol === "file:") document.getElementById("search-offline").hidden = false;
    var params = new URLSearchParams(location.search);
    pageInput.value = params.get("q") || "";
    showAuthor(params.get("author") || "");
    authorFilter.querySelector("button").addEventListener("click", function () { showAuthor(""); pageSearch(); });
    Object.keys(controls).forEach(function (key) {
      var select = document.getElementById(controls[key]);
      if (params.get(key)) select.value = params.get(key);
      select.addEventListener("change", pageSearch);
    });
    moreButton.addEventListener("click", showMore);
    pageInput.addEventListener("focus", engine);
    pageInput.addEventListener("input", debounce(pageSearch, 120));
    pageInput.form.addEventListener("submit", function (event) { event.preventDefault(); pageSearch(); });
    pageInput.addEventListener("keydown", function (event) {
      if (event.key === "Escape") { pageInput.value = ""; pageSearch(); }
    });
    pageInput.focus();
    pageSearch();
  }

  // --- Paper pages: highlight the words of the search that led here ------------------------

  var highlight = new URLSearchParams(location.search).get("highlight");
  if (highlight) {
    var wanted = words(highlight).filter(function (word) { return word.length > 1; });
    if (wanted.length) {
      var pattern = new RegExp("[\\p{L}\\p{N}]+", "gu");
      document.querySelectorAll(".paper h1, .abstract p, .highlights").forEach(function (container) {
        markWords(container, pattern, wanted);
      });
    }
  }

  function markWords(container, pattern, wanted) {
    var walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT);
    var nodes = [];
    while (walker.nextNode()) {
      if (!walker.currentNode.parentNode.closest("math")) nodes.push(walker.currentNode);
    }
    nodes.forEach(function (node) {
      var text = node.nodeValue;
      var pieces = [];
      var last = 0;
      text.replace(pattern, function (word, at) {
        var folded = stem(word.toLowerCase());
        if (wanted.some(function (w) { return folded === w || (w.length >= 3 && folded.indexOf(w) === 0); })) {
          pieces.push(document.createTextNode(text.slice(last, at)));
          var mark = document.createElement("mark");
          mark.textContent = word;
          pieces.push(mark);
          last = at + word.length;
        }
        return word;
      });
      if (!pieces.length) return;
      pieces.push(document.createTextNode(text.slice(last)));
      node.replaceWith.apply(node, pieces);
    });
  }
})();
