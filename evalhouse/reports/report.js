// evalhouse report: sortable and filterable tables, and the examples drawn as dependency arcs.
// Inlined into index.html by evalhouse/reports/html.py; no library, no network. Every name from the
// warehouse is written with textContent or setAttribute, never parsed as HTML.
"use strict";
(function () {
  var SVG = "http://www.w3.org/2000/svg";
  var data = JSON.parse(document.getElementById("eh-data").textContent);

  // --- tables: sort on header click, filter by team / corpus / relation / text -----------------
  function cellValue(td) {
    var v = td.getAttribute("data-v");
    if (v !== null) { return v === "" ? NaN : parseFloat(v); }
    return td.textContent.toLowerCase();
  }
  function compare(a, b, asc) {
    var an = typeof a === "number", bn = typeof b === "number";
    if (an && bn) {
      if (isNaN(a) && isNaN(b)) { return 0; }
      if (isNaN(a)) { return 1; }   // empty cells last, whatever the direction
      if (isNaN(b)) { return -1; }
      return asc ? a - b : b - a;
    }
    a = String(a); b = String(b);
    return asc ? a.localeCompare(b) : b.localeCompare(a);
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.eh"), function (tbl) {
    var heads = tbl.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads, function (th, col) {
      if (th.classList.contains("nosort")) { return; }
      th.tabIndex = 0;
      function sort() {
        var asc = th.getAttribute("aria-sort") !== "ascending";
        Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", asc ? "ascending" : "descending");
        var body = tbl.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (r1, r2) { return compare(cellValue(r1.cells[col]), cellValue(r2.cells[col]), asc); });
        rows.forEach(function (r) { body.appendChild(r); });
      }
      th.addEventListener("click", sort);
      th.addEventListener("keydown", function (e) { if (e.key === "Enter") { sort(); } });
    });
  });

  var filters = document.querySelectorAll("[data-filter]");
  var text = document.getElementById("filter-text");
  function applyFilters() {
    var want = {};
    Array.prototype.forEach.call(filters, function (s) { if (s.value) { want[s.getAttribute("data-filter")] = s.value; } });
    var needle = text.value.trim().toLowerCase();
    Array.prototype.forEach.call(document.querySelectorAll("table.eh tbody tr"), function (tr) {
      var show = true;
      Object.keys(want).forEach(function (k) {
        var v = tr.getAttribute("data-" + k);
        if (v !== null && v !== want[k]) { show = false; }
      });
      if (show && needle && tr.textContent.toLowerCase().indexOf(needle) < 0) { show = false; }
      tr.hidden = !show;
    });
  }
  Array.prototype.forEach.call(filters, function (s) { s.addEventListener("change", applyFilters); });
  text.addEventListener("input", applyFilters);

  // --- LaTeX toggles: Copy puts the table's LaTeX on the clipboard (or selects it, where no clipboard) -----
  Array.prototype.forEach.call(document.querySelectorAll("details.latex button.copy"), function (button) {
    button.addEventListener("click", function () {
      var code = button.parentNode.querySelector("code");
      var range = document.createRange();
      range.selectNodeContents(code);
      var selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      function done(ok) { button.textContent = ok ? "Copied" : "Selected: press Ctrl+C"; }
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(code.textContent).then(function () { done(true); }, function () { done(false); });
      } else {
        var ok = false;
        try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
        done(ok);
      }
    });
  });

  // --- printing: a table wider than the page is printed in parts of whole columns, its leading text columns
  // (team, run, corpus, ...) repeated in each part. The widths are measured in the print style (html.printing,
  // report.css) at min-content, when the browser is about to print; the parts go when printing is over.
  var PRINT_WIDTH = 700;   // CSS px: an A4 page less 12 mm margins is 703 px wide, a Letter page 726 px
  function minWidths(tbl) {
    var probe = tbl.cloneNode(true);
    probe.removeAttribute("id");
    probe.style.width = "min-content";
    var box = el("div", "print-probe");
    box.appendChild(probe);
    document.body.appendChild(box);
    var widths = Array.prototype.map.call(probe.tHead.rows[0].cells, function (c) { return c.getBoundingClientRect().width; });
    document.body.removeChild(box);
    return widths;
  }
  function splitForPrint(tbl) {
    var widths = minWidths(tbl);
    var total = widths.reduce(function (a, b) { return a + b; }, 0);
    if (total <= PRINT_WIDTH) { return; }
    var first = tbl.tBodies[0].rows[0];
    var keys = 0, keyWidth = 0;
    while (keys < widths.length - 1 && first && !first.cells[keys].classList.contains("n") &&
           keyWidth + widths[keys] <= PRINT_WIDTH / 2) { keyWidth += widths[keys]; keys += 1; }
    // as few parts as fit the page, then as even as they can be: the smallest width that needs no more parts
    function pack(limit) {
      var out = [], group = [], used = keyWidth;
      for (var c = keys; c < widths.length; c++) {
        if (group.length && used + widths[c] > limit) { out.push(group); group = []; used = keyWidth; }
        group.push(c); used += widths[c];
      }
      if (group.length) { out.push(group); }
      return out;
    }
    var groups = pack(PRINT_WIDTH);
    for (var limit = keyWidth + (total - keyWidth) / groups.length; limit < PRINT_WIDTH; limit += 10) {
      var even = pack(limit);
      if (even.length <= groups.length) { groups = even; break; }
    }
    var parts = el("div", "print-parts");
    groups.forEach(function (cols, k) {
      var keep = {};
      for (var i = 0; i < keys; i++) { keep[i] = true; }
      cols.forEach(function (i) { keep[i] = true; });
      var part = tbl.cloneNode(true);
      part.removeAttribute("id");
      Array.prototype.forEach.call(part.rows, function (row) {
        for (var i = row.cells.length - 1; i >= 0; i--) { if (!keep[i]) { row.deleteCell(i); } }
      });
      parts.appendChild(el("p", "print-part", "Part " + (k + 1) + " of " + groups.length + ": columns " + (cols[0] + 1) +
        "-" + (cols[cols.length - 1] + 1) + " of " + widths.length + (keys ? " (the first " + keys + " repeated)" : "")));
      parts.appendChild(part);
    });
    var box = tbl.parentNode;
    box.classList.add("print-split");
    box.parentNode.insertBefore(parts, box.nextSibling);
  }
  window.addEventListener("beforeprint", function () {
    document.documentElement.classList.add("printing");
    Array.prototype.forEach.call(document.querySelectorAll("table.eh"), splitForPrint);
  });
  window.addEventListener("afterprint", function () {
    Array.prototype.forEach.call(document.querySelectorAll(".print-parts"), function (p) { p.parentNode.removeChild(p); });
    Array.prototype.forEach.call(document.querySelectorAll(".print-split"), function (b) { b.classList.remove("print-split"); });
    document.documentElement.classList.remove("printing");
  });

  function el(tag, cls, txt) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (txt !== undefined && txt !== null) { e.textContent = txt; }
    return e;
  }
  function svgEl(tag, attrs, txt) {
    var e = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (txt !== undefined) { e.textContent = txt; }
    return e;
  }
  function option(sel, value, label) {
    var o = document.createElement("option");
    o.value = value; o.textContent = label; sel.appendChild(o);
  }

  // Draw words on a baseline and arcs above them. arcs: [{from, to, label, cls, labelCls}], 1-based word indices.
  // Each arc is a bracket with a flat top on a "lane" (16 px apart); its label sits on the middle of the top, on
  // a white halo. Lanes are given shortest arc first: an arc goes above every arc nested under it, and up again
  // while its top or its label (measured in the page's font) would overlap a top or label already on that lane.
  // So no two labels overlap (tests/test_report_browser.py reads their boxes), and crossing arcs never share a
  // top. The SVG scrolls sideways in its box on screen and shrinks to the page width in print (viewBox).
  var FONT = "system-ui, \"DejaVu Sans\", sans-serif", REL_PX = 11, WORD_PX = 13, LANE = 16;
  var measure = document.createElement("canvas").getContext("2d");
  function textWidth(text, px, weight) {
    measure.font = (weight || "400") + " " + px + "px " + FONT;
    return measure.measureText(String(text)).width;
  }
  function drawTree(words, arcs, wordClass) {
    var x = [], pos = 8;
    words.forEach(function (w, i) {
      var width = Math.max(24, textWidth(w, WORD_PX, /\bbad\b/.test(wordClass[i] || "") ? "600" : "400") + 14);
      x.push(pos + width / 2); pos += width;
    });
    var drawn = arcs.filter(function (a) { return x[a.from - 1] !== undefined && x[a.to - 1] !== undefined && a.from !== a.to; })
      .map(function (a) {
        var lo = Math.min(a.from, a.to), hi = Math.max(a.from, a.to);
        var bold = /\bhl\b/.test(a.labelCls || a.cls) ? "700" : "400";
        var half = (textWidth(a.label, REL_PX, bold) + 8) / 2, cx = (x[lo - 1] + x[hi - 1]) / 2;
        return {a: a, lo: lo, hi: hi, cx: cx, left: Math.min(x[lo - 1], cx - half), right: Math.max(x[hi - 1], cx + half),
                labelLeft: cx - half, labelRight: cx + half, lane: 0};
      });
    drawn.sort(function (p, q) { return (p.hi - p.lo) - (q.hi - q.lo) || p.lo - q.lo; });
    var lanes = [];   // lane -> [[left, right]] taken by tops and labels
    var top = 1;
    drawn.forEach(function (d) {
      var lane = 1;
      drawn.forEach(function (e) { if (e.lane && e.lo >= d.lo && e.hi <= d.hi) { lane = Math.max(lane, e.lane + 1); } });
      // touching at a shared word is allowed (1 px), overlapping is not
      while ((lanes[lane] || []).some(function (t) { return d.left < t[1] - 1 && t[0] + 1 < d.right; })) { lane += 1; }
      (lanes[lane] = lanes[lane] || []).push([d.left, d.right]);
      d.lane = lane; top = Math.max(top, lane);
    });
    var base = 10 + top * LANE + 8;     // y where the arcs stand on the words
    var width = Math.max(pos + 8, 60), height = base + 24;
    var svg = svgEl("svg", {width: width, height: height, viewBox: "0 0 " + width + " " + height, class: "tree", role: "img"});
    var labels = [];
    drawn.forEach(function (d) {
      var a = d.a, x1 = x[a.from - 1], x2 = x[a.to - 1], y0 = base - 2, y = base - d.lane * LANE;
      var dir = x2 > x1 ? 1 : -1, r = Math.min(6, Math.abs(x2 - x1) / 2);
      var path = "M" + x1 + "," + y0 + " L" + x1 + "," + (y + r) + " Q" + x1 + "," + y + " " + (x1 + dir * r) + "," + y +
        " L" + (x2 - dir * r) + "," + y + " Q" + x2 + "," + y + " " + x2 + "," + (y + r) + " L" + x2 + "," + y0;
      svg.appendChild(svgEl("path", {d: path, class: "arc " + a.cls}));
      svg.appendChild(svgEl("path", {d: "M" + (x2 - 3) + "," + (y0 - 6) + " L" + x2 + "," + y0 + " L" + (x2 + 3) + "," + (y0 - 6), class: "head " + a.cls}));
      labels.push(svgEl("text", {x: d.cx, y: y, class: "rel " + (a.labelCls || a.cls)}, a.label));
    });
    labels.forEach(function (t) { svg.appendChild(t); });   // above every arc
    words.forEach(function (w, i) {
      svg.appendChild(svgEl("text", {x: x[i], y: base + 16, class: "word " + (wordClass[i] || "")}, w));
    });
    return svg;
  }

  // --- parser examples: the gold tree above the parser's -------------------------------------------
  (function () {
    var runSel = document.getElementById("px-run");
    if (!runSel || !data.parse) { return; }
    var P = data.parse;
    var bSel = document.getElementById("px-breakdown"), gSel = document.getElementById("px-grp");
    var pList = document.getElementById("px-list");
    var items = {};
    P.items.forEach(function (e) { items[e[0] + "\u0000" + e[1] + "\u0000" + e[2]] = e[3]; });
    P.runs.forEach(function (r, i) { option(runSel, String(i), r[0] + "/" + r[1] + " on " + r[2]); });
    function fillBreakdowns() {
      var keep = bSel.value;
      while (bSel.firstChild) { bSel.removeChild(bSel.firstChild); }
      var seen = {};
      P.items.forEach(function (e) {
        if (String(e[0]) === runSel.value && !seen[e[1]]) { seen[e[1]] = true; option(bSel, e[1], e[1].replace("_", " ")); }
      });
      if (seen[keep]) { bSel.value = keep; }
    }
    function fillGroups() {
      while (gSel.firstChild) { gSel.removeChild(gSel.firstChild); }
      P.items.forEach(function (e) {
        if (String(e[0]) === runSel.value && e[1] === bSel.value) { option(gSel, e[2], e[2] + " (" + e[3].length + ")"); }
      });
    }
    function render() {
      while (pList.firstChild) { pList.removeChild(pList.firstChild); }
      var found = items[runSel.value + "\u0000" + bSel.value + "\u0000" + gSel.value];
      if (!found) { pList.appendChild(el("p", "empty", "No example for this choice.")); return; }
      var run = P.runs[Number(runSel.value)];
      found.forEach(function (f) {
        var key = runSel.value + "\t" + f[0];
        var gold = P.gold[key], sys = P.sys[key];
        if (!gold || !sys) { return; }
        var inGroup = {};
        f[1].forEach(function (w) { inGroup[w] = true; });
        var card = el("div", "example");
        var wrongHeads = gold.u.filter(function (u) { return !u; }).length;
        var wrongLabels = gold.l.filter(function (l, i) { return !l && gold.u[i]; }).length;
        card.appendChild(el("div", "ex-head", "gold sentence " + f[0] + " · " + gold.w.length + " gold words · " +
          wrongHeads + " wrong head(s), " + wrongLabels + " wrong relation(s) with the right head"));
        var arcs = [], cls = [];
        gold.h.forEach(function (h, i) {
          var c = (gold.u[i] ? "ok" : "bad") + (inGroup[i + 1] ? " hl" : "");
          if (h !== 0) { arcs.push({from: h, to: i + 1, label: gold.r[i], cls: c, labelCls: (!gold.l[i] ? "bad" : "ok") + (inGroup[i + 1] ? " hl" : "")}); }
          cls.push((inGroup[i + 1] ? "hl " : "") + (gold.u[i] ? "" : "bad"));
        });
        card.appendChild(el("div", "side", "gold"));
        var box1 = el("div", "scroll"); box1.appendChild(drawTree(gold.w, arcs, cls)); card.appendChild(box1);
        var sArcs = [], sCls = [];
        sys.h.forEach(function (h, i) {
          var mine = sys.a[i] && inGroup[sys.a[i]];
          var c = (sys.u[i] ? "ok" : "bad") + (mine ? " hl" : "");
          if (h > 0) { sArcs.push({from: h, to: i + 1, label: sys.r[i], cls: c, labelCls: (!sys.l[i] ? "bad" : "ok") + (mine ? " hl" : "")}); }
          sCls.push((mine ? "hl " : "") + (!sys.a[i] ? "unaligned" : (sys.u[i] ? "" : "bad")));
        });
        card.appendChild(el("div", "side", "parser " + run[0] + "/" + run[1]));
        var box2 = el("div", "scroll"); box2.appendChild(drawTree(sys.w, sArcs, sCls)); card.appendChild(box2);
        pList.appendChild(card);
      });
    }
    runSel.addEventListener("change", function () { fillBreakdowns(); fillGroups(); render(); });
    bSel.addEventListener("change", function () { fillGroups(); render(); });
    gSel.addEventListener("change", render);
    Array.prototype.forEach.call(document.querySelectorAll("a.px"), function (a) {
      a.addEventListener("click", function () {
        runSel.value = a.getAttribute("data-run");
        fillBreakdowns();
        bSel.value = a.getAttribute("data-breakdown");
        fillGroups();
        gSel.value = a.getAttribute("data-grp");
        render();
      });
    });
    fillBreakdowns();
    fillGroups();
    render();
  })();

  // --- examples -----------------------------------------------------------------------------------
  var subSel = document.getElementById("ex-sub");
  if (!subSel) { return; }
  var kindSel = document.getElementById("ex-kind");
  var itemSel = document.getElementById("ex-item");
  var list = document.getElementById("ex-list");
  var byKey = {rel: {}, form: {}};
  data.rel.forEach(function (e) { byKey.rel[e[0] + "\u0000" + e[1]] = {item: e[1], view: "", found: e[2].map(function (p) { return [p, null]; })}; });
  data.form.forEach(function (e) { byKey.form[e[0] + "\u0000" + e[1] + "\u0000" + e[2]] = {item: e[2], view: e[1], found: e[3]}; });

  data.subs.forEach(function (s, i) { option(subSel, String(i), s[0] + "/" + s[1] + (s[2] ? " on " + s[2] : "")); });

  function fillItems() {
    while (itemSel.firstChild) { itemSel.removeChild(itemSel.firstChild); }
    var prefix = subSel.value + "\u0000";
    Object.keys(byKey[kindSel.value]).sort().forEach(function (k) {
      if (k.indexOf(prefix) !== 0) { return; }
      var e = byKey[kindSel.value][k];
      option(itemSel, k, (e.view ? e.view + ": " : "") + e.item + " (" + e.found.length + ")");
    });
  }

  function render() {
    while (list.firstChild) { list.removeChild(list.firstChild); }
    var entry = byKey[kindSel.value][itemSel.value];
    if (!entry) { list.appendChild(el("p", "empty", "No example for this choice.")); return; }
    var sub = data.subs[Number(subSel.value)];
    if (!entry.found.length) { list.appendChild(el("p", "empty", "No sentence with this item in the stored examples.")); }
    entry.found.forEach(function (f) {
      var position = f[0], nodes = f[1] || [];
      var sent = data.sent[sub[2] + "\t" + position];
      var out = data.out[subSel.value + "\t" + sub[2] + "\t" + position];
      if (!sent || !out) { return; }
      var inForm = {};
      nodes.forEach(function (n) { inForm[n] = true; });
      var card = el("div", "example");
      var head = el("div", "ex-head");
      head.appendChild(el("b", null, "sent_id " + sent.id));
      var failed = out.m.filter(function (m) { return m === 0; }).length;
      head.appendChild(el("span", null, " · sentence BLEU " + (out.bleu === null ? "n/a" : out.bleu.toFixed(3)) +
        " · DEA " + (out.dea === null ? "n/a" : out.dea.toFixed(3)) + " · " + failed + " of " +
        out.m.filter(function (m) { return m !== null; }).length + " edges failed" + (out.missing ? " · no output" : "")));
      card.appendChild(head);
      // reference tree
      var refArcs = [], refClass = [];
      var focus = function (i) {
        return entry.view ? (inForm[i] && inForm[sent.h[i - 1]]) : sent.r[i - 1].split(":")[0] === entry.item;
      };
      sent.h.forEach(function (h, i) {
        if (h === 0) { return; }
        var cls = out.m[i] === 0 ? "bad" : "ok";
        if (focus(i + 1)) { cls += " hl"; }
        refArcs.push({from: h, to: i + 1, label: sent.r[i], cls: cls});
      });
      sent.w.forEach(function (w, i) { refClass.push(inForm[i + 1] ? "hl" : ""); });
      card.appendChild(el("div", "side", "reference"));
      var box1 = el("div", "scroll"); box1.appendChild(drawTree(sent.w, refArcs, refClass)); card.appendChild(box1);
      card.appendChild(el("div", "text", sent.text));
      // output: the same edges between the tokens aligned to the head and the dependent
      var tokenOf = {};
      out.a.forEach(function (w, t) { if (w && !out.p[t] && tokenOf[w] === undefined) { tokenOf[w] = t + 1; } });
      var outArcs = [], outClass = [];
      sent.h.forEach(function (h, i) {
        if (h === 0 || tokenOf[h] === undefined || tokenOf[i + 1] === undefined) { return; }
        var cls = out.m[i] === 0 ? "bad" : "ok";
        if (focus(i + 1)) { cls += " hl"; }
        outArcs.push({from: tokenOf[h], to: tokenOf[i + 1], label: sent.r[i], cls: cls});
      });
      out.t.forEach(function (t, i) {
        var w = out.a[i];
        var cls = out.p[i] ? "punct" : (!w ? "unaligned" : "");
        if (w && (out.m[w - 1] === 0 || sent.h.some(function (h, d) { return h === w && out.m[d] === 0; }))) { cls += " bad"; }
        if (w && inForm[w]) { cls += " hl"; }
        outClass.push(cls);
      });
      card.appendChild(el("div", "side", "output of " + sub[0] + "/" + sub[1]));
      var box2 = el("div", "scroll"); box2.appendChild(drawTree(out.t, outArcs, outClass)); card.appendChild(box2);
      list.appendChild(card);
    });
  }

  subSel.addEventListener("change", function () { fillItems(); render(); });
  kindSel.addEventListener("change", function () { fillItems(); render(); });
  itemSel.addEventListener("change", render);
  Array.prototype.forEach.call(document.querySelectorAll("a.ex"), function (a) {
    a.addEventListener("click", function () {
      subSel.value = a.getAttribute("data-sub");
      kindSel.value = a.getAttribute("data-kind");
      fillItems();
      var key = a.getAttribute("data-sub") + "\u0000" + (a.getAttribute("data-kind") === "form" ? a.getAttribute("data-view") + "\u0000" : "") + a.getAttribute("data-item");
      itemSel.value = key;
      render();
    });
  });
  fillItems();
  render();
})();
