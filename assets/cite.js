// Paper pages: copy the link or a citation with one click. The link copied is the canonical
// address when the site knows it, else the page's own address without query or fragment.

// A paper's citation as text and as Markdown, from its title and, when known, its authors, its
// venue ("ICML 2026") and its address (its DOI's, when it has one): "Authors. Title. Venue. URL" and
// "Authors. [Title](URL). *Venue*." (the title in bold without an address).
window.catalogueCitations = function (title, authors, venue, url) {
  "use strict";
  var markdown = window.catalogueMarkdown;
  var names = authors.join(", ");
  var plain = (authors.length ? [names] : []).concat([title.replace(/\.+$/, "")], venue ? [venue] : []);
  var linked = url ? "[" + markdown.text(title) + "](" + markdown.url(url) + ")" : "**" + markdown.text(title) + "**";
  return {
    plain: plain.join(". ") + "." + (url ? " " + url : ""),
    markdown: (authors.length ? markdown.text(names) + ". " : "") + linked + "." + (venue ? " *" + markdown.text(venue) + "*." : "")
  };
};

// A paper's BibTeX entry as catalogue/site/cite.py writes it, from its title and authors as written,
// its booktitle ("" without a venue), its year (a string), its DOI, its entry's address and PDF and its key;
// null when a text holds a character it cannot write as cite.py does (cite_script.script_makes decides
// which entries a page or a reading-list record carries instead). Text is escaped as tex.py does:
// TeX's special characters as the commands that print them, any other beyond ASCII from
// tex-letters.js (window.CATALOGUE_PARTS["tex-letters"], made from tex.py by the build).
window.catalogueBibtex = (function () {
  "use strict";
  var ESCAPES = { "\\": "\\textbackslash{}", "{": "\\textbraceleft{}", "}": "\\textbraceright{}", "$": "\\$",
                  "&": "\\&", "%": "\\%", "#": "\\#", "_": "\\_", "^": "\\textasciicircum{}", "~": "\\textasciitilde{}" };
  var URL_ESCAPES = { "{": "%7B", "}": "%7D", "\\": "%5C", "^": "%5E" };
  var most = 100;  // authors named before "and others" (cite.py's MAX_BIBTEX_AUTHORS)

  function tex(text) {  // tex.py's tex_text, or null
    var letters = (window.CATALOGUE_PARTS || {})["tex-letters"] || {};
    var written = "";
    for (var char of text.normalize("NFC")) {
      if (ESCAPES[char]) written += ESCAPES[char];
      else if (char >= " " && char <= "~") written += char;
      else if (Object.prototype.hasOwnProperty.call(letters, char)) written += letters[char];
      else return null;
    }
    return written;
  }

  // Words with inner capitals braced, which styles would lower-case (cite.py's protect_capitals).
  function protect(title) {
    return title.split(" ").map(function (word) {
      var letters = word.replace(/\\(?:[A-Za-z]+|[\s\S])|[{}]/g, "");
      return /[^\s\-][A-Z]/.test(letters) ? "{" + word + "}" : word;
    }).join(" ");
  }

  return function (paper) {
    if (/[$\\]/.test(paper.title + paper.authors.join("") + paper.booktitle)) return null;  // math, commands
    var authors = paper.authors.slice(0, most).concat(paper.authors.length > most ? ["others"] : []);
    var inProceedings = Boolean(authors.length && paper.booktitle && paper.year);
    var title = tex(paper.title);
    var named = authors.length ? tex(authors.join(" and ")) : tex((paper.title.match(/\S+/g) || []).slice(0, 4).join(" "));
    var booktitle = paper.booktitle ? tex(paper.booktitle) : "";
    if (title === null || named === null || booktitle === null) return null;
    var fields = [["title", "{" + protect(title) + "}"], [authors.length ? "author" : "key", "{" + named + "}"]];
    if (paper.booktitle) fields.push([inProceedings ? "booktitle" : "howpublished", "{" + booktitle + "}"]);
    if (paper.year) fields.push(["year", paper.year]);
    [["doi", paper.doi], ["url", paper.url], ["pdf", paper.pdf]].forEach(function (address) {
      if (address[1]) fields.push([address[0], "{" + address[1].replace(/[{}\\^]/g, function (c) { return URL_ESCAPES[c]; }) + "}"]);
    });
    return "@" + (inProceedings ? "inproceedings" : "misc") + "{" + paper.key + ",\n" +
      fields.map(function (field) { return "  " + field[0] + " = " + field[1]; }).join(",\n") + "\n}\n";
  };
})();

(function () {
  "use strict";
  var status = document.querySelector(".copy-status");
  var text = window.catalogueText;

  function say(message) {
    if (!status) return;
    status.textContent = message;
    clearTimeout(say.timer);
    say.timer = setTimeout(function () { status.textContent = ""; }, 2500);
  }

  function copy(content, message) {
    window.catalogueCopy(content, function () { say(message); }, function () { say(text("copy_by_hand")); });
  }

  // The BibTeX entry when the page does not carry it, and the text and Markdown citations under it,
  // made from what the page says of the paper (its title and year; its authors, venue, address and
  // DOI in its JSON-LD, the DOI as its https://doi.org/ address; its PDF in its Scholar tag; its
  // venue's proceedings in site-data.js; its key, and an address or PDF said nowhere else, in the
  // cite section's data-*) rather than written into every page.
  function addCitations() {
    var details = document.querySelector("details.citations");
    var heading = document.querySelector("article.paper h1");
    var data = document.querySelector('script[type="application/ld+json"]');
    if (!details || !heading || !data) return;
    var paper = JSON.parse(data.textContent);
    var title = heading.getAttribute("data-title") || heading.textContent;  // the title as text (paper.html)
    var authors = (paper.author || []).map(function (author) { return author.name; });
    var venue = paper.isPartOf ? paper.isPartOf.name : "";
    var doiAddress = paper.identifier || "";  // https://doi.org/ and the DOI, percent-encoded (cite.py's doi_address)
    var section = document.querySelector("section.cite");
    if (!document.getElementById("cite-bibtex") && section) {
      var article = document.querySelector("article[data-year]");
      var pdf = document.querySelector('meta[name="citation_pdf_url"]');
      var said = section.dataset;
      var year = article ? article.getAttribute("data-year") : "";
      // The venue as its list names it is the JSON-LD's venue less the year; site-data.js names its proceedings.
      var named = year && venue.slice(-year.length - 1) === " " + year ? venue.slice(0, -year.length - 1) : venue;
      var proceedings = window.catalogueSite("proceedings");
      var made = window.catalogueBibtex({
        title: title, authors: authors, url: said.url || paper.url || "",
        booktitle: Object.prototype.hasOwnProperty.call(proceedings, named) ? proceedings[named] : venue,
        pdf: said.pdf || (pdf ? pdf.content : ""), year: year, key: said.key,
        doi: decodeURIComponent(doiAddress.replace(/^https:\/\/doi\.org\//, ""))
      });
      if (made) details.appendChild(document.createElement("pre")).textContent = made;
      if (made) details.lastChild.id = "cite-bibtex";
    }
    var citations = window.catalogueCitations(title, authors, venue, doiAddress || paper.url || "");
    [["plain", text("text_citation")], ["markdown", "Markdown"]].forEach(function (kind) {
      var title = document.createElement("h3");
      title.id = kind[0] + "-heading";
      var button = document.createElement("button");
      button.type = "button";
      button.className = "copy small";
      button.setAttribute("data-copy", "#cite-" + kind[0]);
      button.textContent = text("copy");
      title.append(kind[1] + " ", button);
      var shown = document.createElement("p");
      shown.id = "cite-" + kind[0];
      shown.className = "citation-text";
      if (kind[0] === "markdown") shown.appendChild(document.createElement("code")).textContent = citations.markdown;
      else shown.textContent = citations.plain;
      details.append(title, shown);
    });
  }

  addCitations();
  document.querySelectorAll("[data-copy-link]").forEach(function (button) {
    button.addEventListener("click", function () {
      var canonical = document.querySelector('link[rel="canonical"]');
      copy(canonical ? canonical.href : location.href.split(/[?#]/)[0], text("copied_link"));
    });
  });
  document.querySelectorAll("[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      var source = document.querySelector(button.getAttribute("data-copy"));
      if (source) copy(source.textContent.trim(), text("copied_citation"));
    });
  });
})();
