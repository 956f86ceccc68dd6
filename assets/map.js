// The map page: draw the dots and the groups' lists from the map's data (map/map-data.js, loaded
// before this script, window.CATALOGUE_MAP: see catalogue/site/map_page.py), zoom and pan the map's
// SVG by its viewBox (buttons, wheel, pinch, drag, keys), and pick the nearest dot under a pointer,
// so a tap or a click near a dot opens it even where dots crowd.
(function () {
  "use strict";
  var SVG_NS = "http://www.w3.org/2000/svg";
  var data = window.CATALOGUE_MAP || { points: [], groups: [] };
  var root = document.documentElement.getAttribute("data-root") || "";
  function paperAddress(point) { return root + window.catalogueRoute("paper", { slug: point[3] }); }
  function label(point) { return point[4] || point[5]; }  // its name, else its title

  // Each group's papers, most typical first, in the list below the map.
  Array.prototype.forEach.call(document.querySelectorAll(".map-group ol[data-group]"), function (list) {
    var items = document.createDocumentFragment();
    (data.groups[Number(list.getAttribute("data-group"))] || []).forEach(function (index) {
      var point = data.points[index];
      var link = document.createElement("a");
      link.href = paperAddress(point);
      if (point[4]) {
        var name = link.appendChild(document.createElement("span"));
        name.className = "name";
        name.textContent = point[4];
        link.appendChild(document.createTextNode(" "));
      }
      link.appendChild(document.createTextNode(point[5]));
      items.appendChild(document.createElement("li")).appendChild(link);
    });
    list.appendChild(items);
  });

  var figure = document.getElementById("map");
  var svg = figure && figure.querySelector("svg.map");
  if (!svg) return;
  var base = svg.getAttribute("viewBox").split(" ").map(Number);
  var WIDTH = base[2], HEIGHT = base[3];
  var MAX_ZOOM = 24, STEP = 1.6, HIT_PX = 12;
  var view = { x: 0, y: 0, w: WIDTH, h: HEIGHT };
  var tools = document.getElementById("map-tools");
  var tip = document.getElementById("map-tip");

  // The dots: a link each, in its colour's group, named by its aria-label (no <title>, so that the
  // browser's own tooltip, of the topmost dot, never contradicts the nearest one's).
  var groups = {};
  Array.prototype.forEach.call(svg.querySelectorAll("g.dots[data-group]"), function (group) {
    groups[group.getAttribute("data-group")] = group;
  });
  var first = svg.querySelector("g.dots[data-r]");
  var radius = first ? Number(first.getAttribute("data-r")) : 0;
  var links = [], xs = [], ys = [], names = [];
  data.points.forEach(function (point) {
    var group = groups[point[2]];
    if (!group) return;
    var link = document.createElementNS(SVG_NS, "a");
    link.setAttribute("href", paperAddress(point));
    link.setAttribute("aria-label", label(point));
    var circle = link.appendChild(document.createElementNS(SVG_NS, "circle"));
    circle.setAttribute("cx", point[0]);
    circle.setAttribute("cy", point[1]);
    circle.setAttribute("r", radius);
    group.appendChild(link);
    links.push(link); xs.push(point[0]); ys.push(point[1]); names.push(label(point));
  });

  svg.classList.add("is-interactive");
  svg.setAttribute("tabindex", "0");
  if (tools) tools.hidden = false;

  function zoom() { return WIDTH / view.w; }
  function unitsPerPixel() { return view.w / (svg.getBoundingClientRect().width || WIDTH); }

  function apply() {
    var z = zoom();
    svg.setAttribute("viewBox", [view.x, view.y, view.w, view.h].map(function (n) { return Math.round(n * 100) / 100; }).join(" "));
    svg.style.setProperty("--map-zoom", String(z));
    svg.style.setProperty("--map-hit", (2 * HIT_PX * unitsPerPixel()) + "px");
    svg.style.setProperty("--map-r", (radius / Math.sqrt(z)) + "px");
    svg.classList.toggle("is-zoomed", z > 1.001);
    hideTip();
  }

  function clampView() {
    view.w = Math.min(WIDTH, Math.max(WIDTH / MAX_ZOOM, view.w));
    view.h = view.w * HEIGHT / WIDTH;
    view.x = Math.min(WIDTH - view.w, Math.max(0, view.x));
    view.y = Math.min(HEIGHT - view.h, Math.max(0, view.y));
  }

  // Zoom by `factor` keeping the map's point (cx, cy) where it is on the screen.
  function zoomAt(factor, cx, cy) {
    var w = view.w;
    view.w = w / factor;
    clampView();
    var kept = view.w / w;
    view.x = cx - (cx - view.x) * kept;
    view.y = cy - (cy - view.y) * kept;
    clampView();
    apply();
  }

  function centre() { return [view.x + view.w / 2, view.y + view.h / 2]; }

  function reset() { view = { x: 0, y: 0, w: WIDTH, h: HEIGHT }; apply(); }

  function panBy(dx, dy) { view.x += dx; view.y += dy; clampView(); apply(); }

  // The map's point under a place on the screen.
  function toMap(clientX, clientY) {
    var box = svg.getBoundingClientRect();
    return [view.x + (clientX - box.left) * view.w / box.width, view.y + (clientY - box.top) * view.h / box.height];
  }

  // The dot nearest to a place on the screen, if one is within reach of a finger.
  function nearest(clientX, clientY) {
    var at = toMap(clientX, clientY);
    var perPixel = unitsPerPixel();
    var reach = HIT_PX * perPixel + radius / Math.sqrt(zoom());
    var best = -1, bestDistance = reach * reach;
    for (var i = 0; i < xs.length; i++) {
      var dx = xs[i] - at[0], dy = ys[i] - at[1];
      var d = dx * dx + dy * dy;
      if (d <= bestDistance) { best = i; bestDistance = d; }
    }
    return best;
  }

  // --- The tooltip: the name of the dot a pointer is near, or of the focused dot ------------

  var shown = -1;
  function showTip(index) {
    if (shown >= 0 && shown !== index) links[shown].classList.remove("is-near");
    shown = index;
    if (index < 0 || !tip) { hideTip(); return; }
    links[index].classList.add("is-near");
    var box = svg.getBoundingClientRect(), frame = figure.getBoundingClientRect();
    tip.textContent = names[index];
    tip.hidden = false;
    var x = box.left - frame.left + (xs[index] - view.x) * box.width / view.w;
    var y = box.top - frame.top + (ys[index] - view.y) * box.height / view.h;
    var half = tip.offsetWidth / 2;
    tip.style.left = Math.max(half, Math.min(frame.width - half, x)) + "px";
    tip.style.top = y + "px";
  }
  function hideTip() {
    if (shown >= 0) links[shown].classList.remove("is-near");
    shown = -1;
    if (tip) tip.hidden = true;
  }

  // --- Buttons, wheel and keys ----------------------------------------------------------------

  if (tools) tools.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-zoom]");
    if (!button) return;
    var how = button.getAttribute("data-zoom");
    var c = centre();
    if (how === "in") zoomAt(STEP, c[0], c[1]);
    else if (how === "out") zoomAt(1 / STEP, c[0], c[1]);
    else reset();
  });

  svg.addEventListener("wheel", function (event) {
    var delta = event.deltaY * (event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? 400 : 1);
    if (!delta || (zoom() <= 1.001 && delta > 0)) return;  // fully out: the page scrolls on
    event.preventDefault();
    var at = toMap(event.clientX, event.clientY);
    zoomAt(Math.exp(-delta * 0.0025), at[0], at[1]);
  }, { passive: false });

  svg.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var c = centre(), step = view.w / 8, key = event.key;
    if (key === "+" || key === "=") zoomAt(STEP, c[0], c[1]);
    else if (key === "-" || key === "_") zoomAt(1 / STEP, c[0], c[1]);
    else if (key === "0") reset();
    else if (zoom() > 1.001 && key === "ArrowLeft") panBy(-step, 0);
    else if (zoom() > 1.001 && key === "ArrowRight") panBy(step, 0);
    else if (zoom() > 1.001 && key === "ArrowUp") panBy(0, -step);
    else if (zoom() > 1.001 && key === "ArrowDown") panBy(0, step);
    else return;
    event.preventDefault();
    event.stopPropagation();  // not also a shortcut of the reader tools
  });

  // A focused dot is brought into view and named.
  svg.addEventListener("focusin", function (event) {
    var link = event.target.closest && event.target.closest(".dots a");
    var index = link ? links.indexOf(link) : -1;
    if (index < 0) { hideTip(); return; }
    var x = xs[index], y = ys[index];
    if (x < view.x || x > view.x + view.w || y < view.y || y > view.y + view.h) {
      view.x = x - view.w / 2; view.y = y - view.h / 2; clampView(); apply();
    }
    showTip(index);
  });
  svg.addEventListener("focusout", hideTip);

  // --- Pointers: drag to pan, pinch to zoom, the nearest dot on hover and on a tap ------------

  var pointers = {};
  var dragged = false, start = null, pinch = null;

  svg.addEventListener("pointerdown", function (event) {
    if (event.button !== 0) return;
    pointers[event.pointerId] = [event.clientX, event.clientY];
    var ids = Object.keys(pointers);
    if (ids.length === 1) { start = { x: event.clientX, y: event.clientY, view: { x: view.x, y: view.y } }; dragged = false; }
    if (ids.length === 2) {
      var a = pointers[ids[0]], b = pointers[ids[1]];
      pinch = { distance: Math.hypot(a[0] - b[0], a[1] - b[1]) || 1 };
      dragged = true;
    }
  });

  svg.addEventListener("pointermove", function (event) {
    if (!pointers[event.pointerId]) {
      if (event.pointerType === "mouse") showTip(nearest(event.clientX, event.clientY));
      return;
    }
    pointers[event.pointerId] = [event.clientX, event.clientY];
    var ids = Object.keys(pointers);
    if (ids.length === 2 && pinch) {
      var a = pointers[ids[0]], b = pointers[ids[1]];
      var distance = Math.hypot(a[0] - b[0], a[1] - b[1]) || 1;
      var middle = toMap((a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
      zoomAt(distance / pinch.distance, middle[0], middle[1]);
      pinch.distance = distance;
      return;
    }
    if (ids.length !== 1 || !start) return;
    var dx = event.clientX - start.x, dy = event.clientY - start.y;
    if (!dragged && Math.hypot(dx, dy) < 5) return;
    if (zoom() <= 1.001) return;  // nothing to move: a touch scrolls the page
    if (!dragged) { dragged = true; svg.setPointerCapture(event.pointerId); svg.classList.add("is-dragging"); }
    var perPixel = unitsPerPixel();
    view.x = start.view.x - dx * perPixel;
    view.y = start.view.y - dy * perPixel;
    clampView();
    apply();
  });

  function lift(event) {
    delete pointers[event.pointerId];
    if (Object.keys(pointers).length < 2) pinch = null;
    if (!Object.keys(pointers).length) { start = null; svg.classList.remove("is-dragging"); }
  }
  svg.addEventListener("pointerup", lift);
  svg.addEventListener("pointercancel", function (event) { lift(event); dragged = false; });
  svg.addEventListener("pointerleave", function (event) { if (event.pointerType === "mouse") hideTip(); });

  // A click (not a key's: detail 0) opens the dot nearest to it; a drag opens nothing.
  svg.addEventListener("click", function (event) {
    if (dragged) { event.preventDefault(); dragged = false; return; }
    if (event.detail === 0) return;
    var index = nearest(event.clientX, event.clientY);
    var target = event.target.closest && event.target.closest("a");
    if (index < 0) { if (target) event.preventDefault(); return; }
    if (links[index] === target) return;
    event.preventDefault();
    if (event.ctrlKey || event.metaKey || event.shiftKey) window.open(links[index].href, "_blank");
    else location.href = links[index].href;
  }, true);

  if (window.ResizeObserver) new ResizeObserver(function () { apply(); }).observe(svg);
  apply();
})();
