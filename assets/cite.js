// Paper pages: copy the link or a citation with one click. The link copied is the canonical
// address when the site knows it, else the page's own address without query or fragment.
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
