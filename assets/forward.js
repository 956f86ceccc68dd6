// On the 404 page: a link of an earlier layout (papers/x/, authors/x/, anything inside them) goes on
// to the page's address now (papers/b/x/), keeping the rest of the path, the query and the anchor.
// The pairs come from the page (<script type="application/json" id="site-forwards">, from
// catalogue/routes.py's FORWARDS). An address already of the current layout is a real miss: it stays.
(function () {
  "use strict";
  var root = new URL(document.documentElement.getAttribute("data-root") || "/", location.href).pathname;
  var path = location.pathname;
  if (path.indexOf(root) !== 0) return;
  var inside = path.slice(root.length);
  var forwards = window.catalogueData("site-forwards");
  for (var i = 0; i < forwards.length; i++) {
    var folder = forwards[i][0].split("{slug}")[0];
    if (inside.indexOf(folder) !== 0) continue;
    var rest = inside.slice(folder.length);
    var slug = rest.split("/")[0];
    var after = rest.slice(slug.length).replace(/^\//, "");
    if (!slug || (/^[0-9a-f]{2}$/.test(slug) && /^[^/.]+/.test(after))) return;  // a bucket: the current layout
    var decoded;
    try { decoded = decodeURIComponent(slug); } catch (error) { return; }
    var target = root + window.catalogueRoute(forwards[i][1], {slug: slug, bucket: window.catalogueBucket(decoded)}) + after;
    if (target !== path) location.replace(target + location.search + location.hash);
    return;
  }
})();
