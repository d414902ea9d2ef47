// The reader (reader.html): fit the text layer to the page images, highlight the exact words
// of a citation (across pages), find in the paper, and keys: j/k page, n/p citation, / find.
(function () {
  "use strict";
  var reader = document.getElementById("reader");
  if (!reader) return;
  var paper = reader.dataset.paper, report = reader.dataset.report;
  var panel = document.getElementById("report-panel");
  var marksData = JSON.parse(document.getElementById("highlights").textContent || "{}");
  var sheets = Array.prototype.slice.call(document.querySelectorAll(".sheet"));
  var words = Array.prototype.slice.call(document.querySelectorAll(".text-layer .w"));
  var cites = panel ? Array.prototype.slice.call(panel.querySelectorAll(".cite[data-page]")) : [];
  var activeCite = -1;
  var tabs = Array.prototype.slice.call(document.querySelectorAll(".reader-tabs [data-view]"));

  // on a phone the report and the pages are tabs: one is shown at a time
  function show(view) {
    reader.dataset.view = view;
    tabs.forEach(function (b) { b.setAttribute("aria-pressed", String(b.dataset.view === view)); });
  }
  function tabbed() { return tabs.length > 0 && getComputedStyle(tabs[0].parentNode).display !== "none"; }
  tabs.forEach(function (b) {
    b.addEventListener("click", function () {
      show(b.dataset.view);
      window.scrollTo(0, 0);
    });
  });
  if (tabs.length) show("pages");

  // Each word's font size is in cqw (% of the page width), like its box: stretch the glyphs
  // horizontally so the word spans its box at any page width.
  function fitWords() {
    var ctx = document.createElement("canvas").getContext("2d");
    ctx.font = "100px sans-serif";
    var scales = words.map(function (w) {
      var size = parseFloat(w.style.fontSize), box = parseFloat(w.style.width);
      var text = w.textContent.replace(/\s+$/, "");
      var natural = ctx.measureText(text).width * size / 100;
      return natural > 0 ? box / natural : 1;
    });
    words.forEach(function (w, i) { w.style.transform = "scaleX(" + scales[i].toFixed(4) + ")"; });
  }

  function sheet(page) { return document.getElementById("page-" + page); }

  function wordsOfLines(p1, l1, p2, l2) {
    var out = [];
    for (var p = p1; p <= p2; p++) {
      var s = sheet(p);
      if (!s) continue;
      s.querySelectorAll("[data-l]").forEach(function (line) {
        var n = +line.dataset.l;
        if ((p > p1 || n >= l1) && (p < p2 || n <= l2)) {
          if (line.tagName === "LI") out.push(line);
          else line.querySelectorAll(".w").forEach(function (w) { out.push(w); });
        }
      });
    }
    return out;
  }

  function clearMarks() {
    document.querySelectorAll(".hl-box").forEach(function (m) { m.remove(); });
    document.querySelectorAll("ol.lines li.hl").forEach(function (li) { li.classList.remove("hl"); });
  }

  // One box per (page, line): from its first highlighted word to its last.
  function drawMarks(targets) {
    clearMarks();
    var groups = {}, order = [];
    targets.forEach(function (el) {
      if (el.tagName === "LI") { el.classList.add("hl"); return; }
      var key = el.id.replace(/-\d+$/, "");
      if (!groups[key]) { groups[key] = []; order.push(key); }
      groups[key].push(el);
    });
    var first = null;
    order.forEach(function (key) {
      var box = null;
      groups[key].forEach(function (w) {
        var x0 = parseFloat(w.style.left), y0 = parseFloat(w.style.top);
        var x1 = x0 + parseFloat(w.style.width), y1 = y0 + parseFloat(w.style.height);
        box = box ? [Math.min(box[0], x0), Math.min(box[1], y0), Math.max(box[2], x1), Math.max(box[3], y1)]
          : [x0, y0, x1, y1];
      });
      var w0 = groups[key][0], parts = w0.id.slice(1).split("-");
      var mark = document.createElement("div");
      mark.className = "hl-box";
      mark.dataset.page = parts[0];
      mark.dataset.line = parts[1];
      mark.style.cssText = "left:" + box[0] + "%;top:" + box[1] + "%;width:" + (box[2] - box[0]) +
        "%;height:" + (box[3] - box[1]) + "%";
      w0.closest(".sheet").querySelector(".marks").appendChild(mark);
      first = first || mark;
    });
    var shown = first || targets[0];
    if (shown) shown.scrollIntoView({ block: "center" });
  }

  function spanOf(el) {
    var p1 = +el.dataset.page, l1 = +el.dataset.lineStart;
    return [p1, l1, +(el.dataset.pageEnd || p1), +(el.dataset.lineEnd || l1)];
  }

  function highlight(span, refs) {
    var targets = refs ? refs.map(function (r) { return document.getElementById("w" + r.join("-")); })
      .filter(Boolean) : [];
    if (!targets.length) targets = wordsOfLines(span[0], span[1], span[2], span[3]);
    drawMarks(targets);
    var cited = document.getElementById("cited");  // 'Cited: ...' names the opening span only
    if (cited) cited.hidden = span.join(",") !== reader.dataset.span;
  }

  function readerUrl(forPaper, page, lines) {
    return "/papers/" + encodeURIComponent(forPaper) + "/pages/" + page + "?lines=" +
      encodeURIComponent(lines).replace(/%3A/g, ":") + (report ? "&report=" + encodeURIComponent(report) : "");
  }

  function openCite(i) {
    var el = cites[i];
    if (!el) return;
    var span = spanOf(el);
    if (el.dataset.paper && el.dataset.paper !== paper) {
      window.location.assign(readerUrl(el.dataset.paper, span[0], el.dataset.lines));
      return;
    }
    if (activeCite >= 0 && cites[activeCite]) cites[activeCite].classList.remove("active");
    activeCite = i;
    el.classList.add("active");
    if (tabbed()) show("pages");  // a citation tapped in the report opens its page
    else el.scrollIntoView({ block: "nearest" });
    highlight(span, marksData[el.dataset.lines + "\n" + (el.dataset.text || "")]);
    history.replaceState(null, "", readerUrl(paper, span[0], el.dataset.lines));
  }

  if (panel) {
    panel.addEventListener("click", function (event) {
      var el = event.target.closest(".cite[data-page]");
      if (!el) return;
      event.preventDefault();
      event.stopPropagation();  // app.js would open the old page view
      openCite(cites.indexOf(el));
    });
  }

  function currentPage() {
    var now = 1;
    sheets.forEach(function (s) { if (s.getBoundingClientRect().top <= 120) now = +s.dataset.page; });
    return now;
  }

  function goPage(delta) {
    var target = sheet(Math.min(Math.max(currentPage() + delta, 1), sheets.length));
    if (target) target.scrollIntoView({ block: "start" });
  }

  var pageNow = document.getElementById("page-now"), ticking = false;
  window.addEventListener("scroll", function () {
    if (ticking) return;
    ticking = true;
    window.requestAnimationFrame(function () { pageNow.textContent = currentPage(); ticking = false; });
  });

  // Find in the paper: the query's words across lines and pages; Enter goes to the next hit.
  var findInput = document.getElementById("find-input"), findCount = document.getElementById("find-count");
  var hits = [], hit = -1, flat = null;
  function flatText() {
    if (flat) return flat;
    var text = "", starts = [];
    words.forEach(function (w) { starts.push(text.length); text += w.textContent.replace(/\s+$/, "").toLowerCase() + " "; });
    flat = { text: text, starts: starts };
    return flat;
  }
  function wordAt(offset) {
    var s = flatText().starts, lo = 0, hi = s.length - 1;
    while (lo < hi) { var mid = (lo + hi + 1) >> 1; if (s[mid] <= offset) lo = mid; else hi = mid - 1; }
    return lo;
  }
  function find() {
    document.querySelectorAll(".w.found").forEach(function (w) { w.classList.remove("found", "current"); });
    hits = []; hit = -1;
    var query = findInput.value.trim().toLowerCase().split(/\s+/).join(" ");
    if (query) {
      var text = flatText().text, at = text.indexOf(query);
      while (at >= 0 && hits.length < 1000) {
        hits.push([wordAt(at), wordAt(at + query.length - 1)]);
        at = text.indexOf(query, at + 1);
      }
    }
    hits.forEach(function (h) { for (var k = h[0]; k <= h[1]; k++) words[k].classList.add("found"); });
    nextHit();
  }
  function nextHit() {
    document.querySelectorAll(".w.current").forEach(function (w) { w.classList.remove("current"); });
    if (!hits.length) { findCount.textContent = findInput.value.trim() ? "no match" : ""; return; }
    hit = (hit + 1) % hits.length;
    for (var k = hits[hit][0]; k <= hits[hit][1]; k++) words[k].classList.add("current");
    words[hits[hit][0]].scrollIntoView({ block: "center" });
    findCount.textContent = (hit + 1) + " of " + hits.length;
  }
  var findTimer = null;
  findInput.addEventListener("input", function () { clearTimeout(findTimer); findTimer = setTimeout(find, 150); });
  document.getElementById("find").addEventListener("submit", function (event) {
    event.preventDefault();
    clearTimeout(findTimer);
    if (hits.length) nextHit(); else find();
  });

  var keys = {
    j: function () { goPage(1); }, k: function () { goPage(-1); },
    n: function () { openCite(Math.min(activeCite + 1, cites.length - 1)); },
    p: function () { openCite(Math.max(activeCite - 1, 0)); },
    "/": function () { findInput.focus(); findInput.select(); }
  };
  document.addEventListener("keydown", function (event) {
    var tag = (event.target.tagName || "").toLowerCase();
    if (event.key === "Escape" && event.target === findInput) { findInput.blur(); return; }
    if (tag === "input" || tag === "textarea" || tag === "select" || event.ctrlKey || event.metaKey || event.altKey) return;
    var act = keys[event.key];
    if (act) { event.preventDefault(); act(); }
  });
  document.querySelectorAll(".reader-bar button[data-key]").forEach(function (b) {
    b.addEventListener("click", function () { keys[b.dataset.key](); });
  });

  fitWords();
  var start = (reader.dataset.span || "").split(",").map(Number);
  if (start.length === 4) {
    var match = cites.findIndex(function (el) { return spanOf(el).join(",") === start.join(","); });
    if (match >= 0) openCite(match); else highlight(start, null);
  } else if (+reader.dataset.page > 1) {
    sheet(+reader.dataset.page).scrollIntoView({ block: "start" });
  }
})();
