// Search page: load Pagefind's UI from the bundle beside this site, restore ?q= from the
// address and keep the address current, so a search can be shared as a link.
(function () {
  "use strict";
  var container = document.getElementById("search");
  if (!container) return;
  if (location.protocol === "file:") {
    document.getElementById("search-offline").hidden = false;
    return;
  }
  // Absolute, so that Pagefind's module import works under any subpath (/REPO/pagefind/).
  var bundle = new URL(container.getAttribute("data-bundle"), document.baseURI).href;
  var style = document.createElement("link");
  style.rel = "stylesheet";
  style.href = bundle + "pagefind-ui.css";
  document.head.appendChild(style);
  var script = document.createElement("script");
  script.src = bundle + "pagefind-ui.js";
  script.onerror = function () { document.getElementById("search-missing").hidden = false; };
  script.onload = start;
  document.body.appendChild(script);

  function start() {
    var ui = new window.PagefindUI({
      element: "#search",
      bundlePath: bundle,
      showSubResults: false,
      showImages: false,
      resetStyles: false,
      translations: { placeholder: "Search by name, title, topic or any word of an abstract" }
    });
    var query = new URLSearchParams(location.search).get("q");
    if (query) ui.triggerSearch(query);
    var input = container.querySelector("input");
    if (!input) return;
    if (!input.id) input.id = "search-input";
    input.setAttribute("aria-label", "Search papers");
    input.focus();
    input.addEventListener("input", function () {
      var params = new URLSearchParams(location.search);
      if (input.value) params.set("q", input.value); else params.delete("q");
      var rest = params.toString();
      history.replaceState(null, "", location.pathname + (rest ? "?" + rest : ""));
    });
  }
})();
