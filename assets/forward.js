// On the 404 page: a link of an earlier layout (papers/x/, authors/x/, authors/b/x/, anything inside
// them) goes on to the page's address now: papers/b/x/ keeping the rest of the path, the query and
// the anchor; an author's section authors/b/#x keeping the query (the rest named one of their pages).
// The pairs (earlier pattern, route now) come from the page (<script type="application/json"
// id="site-forwards">, from catalogue/routes.py's FORWARDS); the first that matches wins. An address
// already of the current layout is a real miss: it stays.
(function () {
  "use strict";
  var root = new URL(document.documentElement.getAttribute("data-root") || "/", location.href).pathname;
  var path = location.pathname;
  if (path.indexOf(root) !== 0) return;
  var inside = path.slice(root.length);
  var BUCKET = /^[0-9a-f]{2}$/;

  // "authors/{bucket}/{slug}/" -> /^authors\/([0-9a-f]{2})\/([^/.]+)(?:\/|$)/ and its placeholders' names.
  function matcher(pattern) {
    var names = [];
    var source = pattern.replace(/\/$/, "").split(/(\{\w+\})/).map(function (part) {
      var name = /^\{(\w+)\}$/.exec(part);
      if (!name) return part.replace(/[.*+?^$()|[\]\\\/]/g, "\\$&");
      names.push(name[1]);
      return name[1] === "bucket" ? "([0-9a-f]{2})" : "([^/.]+)";  // a slug is never a file's name
    }).join("");
    return {names: names, pattern: new RegExp("^" + source + "(?:/|$)")};
  }

  var forwards = window.catalogueData("site-forwards");
  for (var i = 0; i < forwards.length; i++) {
    var earlier = matcher(forwards[i][0]);
    var match = earlier.pattern.exec(inside);
    if (!match) continue;
    var slug = match[earlier.names.indexOf("slug") + 1];
    var after = inside.slice(match[0].length);
    var decoded;
    try { decoded = decodeURIComponent(slug); } catch (error) { return; }
    var target = root + window.catalogueRoute(forwards[i][1], {slug: slug, bucket: window.catalogueBucket(decoded)});
    var section = target.indexOf("#") >= 0;
    // A slug where a bucket would be is the current layout when more follows it, or when the page now
    // is a bucket's (its missing page must not forward again).
    if (earlier.names.indexOf("bucket") < 0 && BUCKET.test(slug) && (section || /^[^/.]+/.test(after))) return;
    if (section) {
      var page = target.split("#")[0];
      if (page !== path) location.replace(page + location.search + target.slice(page.length));
    } else if (target + after !== path) {
      location.replace(target + after + location.search + location.hash);
    }
    return;
  }
})();
