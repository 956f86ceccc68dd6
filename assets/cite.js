// Paper pages: copy the link or a citation with one click. The link copied is the canonical
// address when the site knows it, else the page's own address without query or fragment.

// A paper's citation as text and as Markdown, from its title and, when known, its authors, its
// venue ("ICML 2026") and its address: "Authors. Title. Venue. URL" and
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

// A paper's BibTeX entry as catalogue/site/cite.py writes it, for a paper whose texts it holds as
// written (paper_extras.script_makes_bibtex; else the page carries its entry): `venue` is the venue
// and year as pages name it ("ICML 2026"), `year` a string, `slug` the name of its .bib.
window.catalogueBibtex = function (paper) {
  "use strict";
  var most = 100;  // authors named before "and others" (cite.py's MAX_BIBTEX_AUTHORS)
  var authors = paper.authors.slice(0, most).concat(paper.authors.length > most ? ["others"] : []);
  var inProceedings = Boolean(authors.length && paper.venue && paper.year);
  // Words with inner capitals braced, which styles would lower-case (cite.py's protect_capitals).
  var title = paper.title.split(" ").map(function (word) { return /[^\s\-][A-Z]/.test(word) ? "{" + word + "}" : word; });
  var fields = [["title", "{" + title.join(" ") + "}"],
                authors.length ? ["author", "{" + authors.join(" and ") + "}"]
                               : ["key", "{" + (paper.title.match(/\S+/g) || []).slice(0, 4).join(" ") + "}"]];
  if (paper.venue) fields.push([inProceedings ? "booktitle" : "howpublished", "{" + paper.venue + "}"]);
  if (paper.year) fields.push(["year", paper.year]);
  if (paper.url) fields.push(["url", "{" + paper.url + "}"]);
  if (paper.pdf) fields.push(["pdf", "{" + paper.pdf + "}"]);
  var key = ((paper.venue || paper.year) + paper.slug).toLowerCase().replace(/[^a-z0-9]/g, "");
  return "@" + (inProceedings ? "inproceedings" : "misc") + "{" + key + ",\n" +
    fields.map(function (field) { return "  " + field[0] + " = " + field[1]; }).join(",\n") + "\n}\n";
};

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
  // made from what the page says of the paper (its title and year; its authors, venue and address in
  // its JSON-LD; its PDF in its Scholar tag; its slug in the .bib's name) rather than written into
  // every page.
  function addCitations() {
    var details = document.querySelector("details.citations");
    var heading = document.querySelector("article.paper h1");
    var data = document.querySelector('script[type="application/ld+json"]');
    if (!details || !heading || !data) return;
    var paper = JSON.parse(data.textContent);
    var title = heading.getAttribute("data-title") || heading.textContent;  // the title as text (paper.html)
    var authors = (paper.author || []).map(function (author) { return author.name; });
    var venue = paper.isPartOf ? paper.isPartOf.name : "";
    var bib = document.querySelector(".cite-actions a[download]");
    if (!document.getElementById("cite-bibtex") && bib) {
      var article = document.querySelector("article[data-year]");
      var pdf = document.querySelector('meta[name="citation_pdf_url"]');
      var entry = details.appendChild(document.createElement("pre"));
      entry.id = "cite-bibtex";
      entry.textContent = window.catalogueBibtex({
        title: title, authors: authors, venue: venue, url: paper.url || "", pdf: pdf ? pdf.content : "",
        year: article ? article.getAttribute("data-year") : "",
        slug: decodeURIComponent(bib.getAttribute("href").split("/").pop().replace(/\.bib$/, ""))
      });
    }
    var made = window.catalogueCitations(title, authors, venue, paper.url || "");
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
      if (kind[0] === "markdown") shown.appendChild(document.createElement("code")).textContent = made.markdown;
      else shown.textContent = made.plain;
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
