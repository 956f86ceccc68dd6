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

  // The text and Markdown citations under the BibTeX, made from what the page says of the paper
  // (its title; its authors, venue and address in its JSON-LD) rather than written into every page.
  function addCitations() {
    var details = document.querySelector("details.citations");
    var heading = document.querySelector("h1[data-title]");
    var data = document.querySelector('script[type="application/ld+json"]');
    if (!details || !heading || !data) return;
    var paper = JSON.parse(data.textContent);
    var made = window.catalogueCitations(heading.getAttribute("data-title"),
                                         (paper.author || []).map(function (author) { return author.name; }),
                                         paper.isPartOf ? paper.isPartOf.name : "", paper.url || "");
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
