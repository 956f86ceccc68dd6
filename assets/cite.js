// Paper pages: copy the link or a citation with one click. The link copied is the canonical
// address when the site knows it, else the page's own address without query or fragment.
(function () {
  "use strict";
  var status = document.querySelector(".copy-status");

  function say(message) {
    if (!status) return;
    status.textContent = message;
    clearTimeout(say.timer);
    say.timer = setTimeout(function () { status.textContent = ""; }, 2500);
  }

  function copy(text, what) {
    var done = function () { say(what + " copied"); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () { copyBySelection(text, done); });
    } else {
      copyBySelection(text, done);  // file:// pages are not a secure context
    }
  }

  function copyBySelection(text, done) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.className = "visually-hidden";
    document.body.appendChild(area);
    area.select();
    var copied = document.execCommand("copy");
    document.body.removeChild(area);
    if (copied) done(); else say("Select the text and copy it by hand");
  }

  document.querySelectorAll("[data-copy-link]").forEach(function (button) {
    button.addEventListener("click", function () {
      var canonical = document.querySelector('link[rel="canonical"]');
      copy(canonical ? canonical.href : location.href.split(/[?#]/)[0], "Link");
    });
  });
  document.querySelectorAll("[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      var source = document.querySelector(button.getAttribute("data-copy"));
      if (source) copy(source.textContent.trim(), "Citation");
    });
  });
})();
