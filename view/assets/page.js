(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("stg-data").textContent);
  var canvas = document.getElementById("canvas");
  var details = document.getElementById("details");
  var prefixes = { "drawing-folded": "", "drawing-full": "all-" };
  var selected = null, step = -1;

  function drawing() {
    var full = document.getElementById("drawing-full");
    return full && !full.hidden ? full : document.getElementById("drawing-folded");
  }
  function prefix() { return prefixes[drawing().id]; }
  function el(id) { return document.getElementById(prefix() + id); }
  function baseId(g) {
    var id = g.id || "";
    return id.indexOf("all-") === 0 ? id.slice(4) : id;
  }

  // Pan and zoom: each drawing's viewBox.
  var views = {};
  function setup(div) {
    var svg = div.querySelector("svg");
    if (!svg) return;
    var vb = svg.viewBox.baseVal;
    views[div.id] = { svg: svg, home: [vb.x, vb.y, vb.width, vb.height] };
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  }
  function view() { return views[drawing().id]; }
  function setBox(b) { view().svg.setAttribute("viewBox", b.join(" ")); }
  function box() { var v = view().svg.viewBox.baseVal; return [v.x, v.y, v.width, v.height]; }
  // fit shows the whole drawing, enlarged at most to 4/3 (a point a
  // pixel and a third, Graphviz's text at its size).
  function fit() {
    var h = view().home, r = canvas.getBoundingClientRect();
    var s = Math.max(h[2] / r.width, h[3] / r.height);
    if (s >= 0.75 || r.width === 0) { setBox(h.slice()); return; }
    var w = r.width * 0.75, ht = r.height * 0.75;
    setBox([h[0] + h[2] / 2 - w / 2, h[1] + h[3] / 2 - ht / 2, w, ht]);
  }
  function scale() {
    var r = canvas.getBoundingClientRect(), b = box();
    return Math.max(b[2] / r.width, b[3] / r.height);
  }
  canvas.addEventListener("wheel", function (ev) {
    ev.preventDefault();
    var b = box(), r = canvas.getBoundingClientRect(), s = scale();
    var f = ev.deltaY < 0 ? 0.8 : 1.25;
    var cx = b[0] + b[2] / 2 + (ev.clientX - r.left - r.width / 2) * s;
    var cy = b[1] + b[3] / 2 + (ev.clientY - r.top - r.height / 2) * s;
    setBox([cx - (cx - b[0]) * f, cy - (cy - b[1]) * f, b[2] * f, b[3] * f]);
  }, { passive: false });
  var drag = null;
  canvas.addEventListener("mousedown", function (ev) {
    drag = { x: ev.clientX, y: ev.clientY, b: box(), s: scale(), moved: false };
  });
  window.addEventListener("mousemove", function (ev) {
    if (!drag) return;
    var dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) { drag.moved = true; canvas.classList.add("dragging"); }
    setBox([drag.b[0] - dx * drag.s, drag.b[1] - dy * drag.s, drag.b[2], drag.b[3]]);
  });
  window.addEventListener("mouseup", function () {
    canvas.classList.remove("dragging");
    setTimeout(function () { drag = null; }, 0);
  });
  function centre(g) {
    if (!g || !g.getBBox) return;
    var bb = g.getBBox(), b = box();
    var w = Math.max(b[2], 1), h = Math.max(b[3], 1);
    // Graphviz draws in a group translated by the drawing's height.
    var t = g.ownerSVGElement.querySelector("g.graph").transform.baseVal.consolidate();
    var m = t ? t.matrix : { e: 0, f: 0 };
    var cx = bb.x + bb.width / 2 + m.e, cy = bb.y + bb.height / 2 + m.f;
    setBox([cx - w / 2, cy - h / 2, w, h]);
  }

  // The side panel.
  function esc(s) {
    return String(s).replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; });
  }
  function show(kind, id) {
    var d = kind === "edge" ? data.edges[id] : data.nodes[id];
    if (!d) return;
    var h = "<h2>details</h2><dl>";
    (d.details || []).forEach(function (f) {
      h += "<dt>" + esc(f.name) + "</dt><dd class=\"f-" + esc(f.name.replace(/ /g, "-")) + "\">" + esc(f.value) + "</dd>";
    });
    details.innerHTML = h + "</dl>";
  }
  function select(kind, id) {
    if (selected) selected.classList.remove("selected");
    selected = el(id);
    if (selected) selected.classList.add("selected");
    show(kind, id);
  }
  function kindOf(g) {
    if (g.classList.contains("edge")) return "edge";
    if (g.classList.contains("node")) return "node";
    return null;
  }
  function target(ev) {
    var g = ev.target.closest && ev.target.closest("g.edge, g.node");
    return g && kindOf(g) && (data.edges[baseId(g)] || data.nodes[baseId(g)]) ? g : null;
  }
  canvas.addEventListener("click", function (ev) {
    if (drag && drag.moved) return;
    var g = target(ev);
    if (g) select(kindOf(g), baseId(g));
  });
  canvas.addEventListener("mouseover", function (ev) {
    var g = target(ev);
    if (g && !selected) show(kindOf(g), baseId(g));
  });
  document.querySelectorAll(".tr-item").forEach(function (li) {
    li.addEventListener("click", function () {
      var id = li.getAttribute("data-edge");
      select("edge", id);
      centre(el(id));
    });
  });

  // Fail edges, folded by default.
  var toggle = document.getElementById("showfail");
  if (toggle) toggle.addEventListener("change", function () {
    document.getElementById("drawing-full").hidden = !toggle.checked;
    document.getElementById("drawing-folded").hidden = toggle.checked;
    var keep = selected && baseId(selected);
    selected = null;
    if (keep) select(data.edges[keep] ? "edge" : "node", keep);
    paintStep();
  });

  // Search by location or action.
  var search = document.getElementById("search");
  var results = document.getElementById("search-results"), matches = document.getElementById("matches");
  search.addEventListener("input", function () {
    document.querySelectorAll("g.match").forEach(function (g) { g.classList.remove("match"); });
    var q = search.value.trim().toLowerCase();
    matches.innerHTML = "";
    results.hidden = q === "";
    if (q === "") return;
    var found = [];
    Object.keys(data.nodes).forEach(function (id) {
      if (data.nodes[id].name.toLowerCase().indexOf(q) >= 0) found.push(["node", id, data.nodes[id].name]);
    });
    Object.keys(data.edges).forEach(function (id) {
      var e = data.edges[id];
      if (e.action.toLowerCase().indexOf(q) >= 0 || e.label.toLowerCase().indexOf(q) >= 0) found.push(["edge", id, e.label]);
    });
    found.forEach(function (f, i) {
      var g = el(f[1]);
      if (g) g.classList.add("match");
      if (i < 100) {
        var li = document.createElement("li");
        li.textContent = f[2];
        li.addEventListener("click", function () { select(f[0], f[1]); centre(el(f[1])); });
        matches.appendChild(li);
      }
    });
  });
  search.addEventListener("keydown", function (ev) {
    if (ev.key === "Enter" && matches.firstChild) matches.firstChild.click();
  });
  document.getElementById("fit").addEventListener("click", fit);

  // The trace: stepping highlights the current location and transition.
  var steps = data.steps || [];
  var stepItems = document.querySelectorAll("#steps li");
  function paintStep() {
    document.querySelectorAll(".current, .badstep").forEach(function (g) { g.classList.remove("current", "badstep"); });
    if (step < 0 || step >= steps.length) return;
    var s = steps[step];
    stepItems.forEach(function (li, i) { li.classList.toggle("current", i === step); });
    [s.edge, s.node].forEach(function (id) {
      var g = id && el(id);
      if (g) g.classList.add(s.bad ? "badstep" : "current");
    });
    document.getElementById("stepno").textContent = "step " + (step + 1) + " of " + steps.length;
    if (s.edge) show("edge", s.edge);
    centre(el(s.edge) || el(s.node));
  }
  function go(i) { step = Math.max(0, Math.min(steps.length - 1, i)); paintStep(); }
  if (steps.length) {
    document.getElementById("prev").addEventListener("click", function () { go(step - 1); });
    document.getElementById("next").addEventListener("click", function () { go(step + 1); });
    stepItems.forEach(function (li, i) { li.addEventListener("click", function () { go(i); }); });
    document.addEventListener("keydown", function (ev) {
      if (ev.target === search) return;
      if (ev.key === "ArrowRight") go(step + 1);
      if (ev.key === "ArrowLeft") go(step - 1);
    });
  }

  // The first view: the whole drawing if its text stays readable (at
  // least 0.8 pixel a point), else that scale from the initial location.
  function start() {
    var v = view();
    if (!v) return;
    var r = canvas.getBoundingClientRect(), h = v.home;
    var s = Math.max(h[2] / r.width, h[3] / r.height);
    if (s <= 1.25 || r.width === 0) { fit(); return; }
    var w = r.width * 1.25, ht = r.height * 1.25, cy = h[1] + h[3] / 2;
    var t = v.svg.querySelector("g.graph").transform.baseVal.consolidate();
    var m = t ? t.matrix : { e: 0, f: 0 };
    if (data.topDown) {
      // A tree: from its root, at the top.
      var root = el("n0"), x = h[0];
      if (root) { var rb = root.getBBox(); x = rb.x + rb.width / 2 + m.e - w / 2; }
      setBox([x, h[1], w, ht]);
      return;
    }
    var init = v.svg.querySelector("g.node[id^='" + prefix() + "start_']");
    if (init) {
      var bb = init.getBBox();
      cy = bb.y + bb.height / 2 + m.f;
    }
    setBox([h[0], Math.min(Math.max(cy - ht / 2, h[1]), h[1] + Math.max(h[3] - ht, 0)), w, ht]);
  }
  document.querySelectorAll(".drawing").forEach(setup);
  start();
})();
