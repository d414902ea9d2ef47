// PaperMind's only script: citations that open the cited page, live job stages (SSE),
// and live upload stages (polling). Every page works without it; this makes it live.
(function () {
  "use strict";

  function citeTarget(el) {
    var paper = el.dataset.paper, page = el.dataset.page;
    if (!paper || !page) return null;
    var start = el.dataset.lineStart || "", end = el.dataset.lineEnd || start;
    // data-lines (papermind.reports): '12-15', or '4:90-5:12' for a span across pages
    var lines = el.dataset.lines || (start ? start + "-" + end : "");
    return "/papers/" + encodeURIComponent(paper) + "/pages/" + encodeURIComponent(page) +
      (lines ? "?lines=" + encodeURIComponent(lines).replace(/%3A/g, ":") : "");
  }

  document.addEventListener("click", function (event) {
    var el = event.target.closest ? event.target.closest(".cite[data-page]") : null;
    if (!el || el.tagName === "A" || event.target.closest("a")) return;
    var href = citeTarget(el);
    if (shownReport && href) href += (href.indexOf("?") < 0 ? "?" : "&") + "report=" + shownReport[1];
    if (href) { event.preventDefault(); window.location.assign(href); }
  });

  document.querySelectorAll(".cite[data-page]").forEach(function (el) {
    if (citeTarget(el) && !el.querySelector("a")) { el.setAttribute("role", "link"); el.setAttribute("tabindex", "0"); }
  });

  // on a report's page, its citations open the reader with the report beside the pages
  var shownReport = window.location.pathname.match(/^\/jobs\/([0-9a-f]+)\/report$/);
  if (shownReport) {
    document.querySelectorAll(".cite a[href^='/papers/']").forEach(function (a) {
      a.setAttribute("href", a.getAttribute("href") + "&report=" + shownReport[1]);
    });
  }

  function humanStep(node) {
    var words = String(node || "step").replace(/_/g, " ").trim();
    return words.charAt(0).toUpperCase() + words.slice(1);
  }

  // a finished job's page is rendered again by the server: usage, report link, no Cancel
  function finishJob(box, status) {
    box.dataset.status = status;
    var cancel = box.querySelector("[data-role=cancel]");
    if (cancel) cancel.remove();
    window.location.reload();
  }

  function followJob(box) {
    var stages = box.querySelector("[data-role=stages]");
    var status = box.querySelector("[data-role=status]");
    var source = new EventSource("/api/jobs/" + encodeURIComponent(box.dataset.job) + "/stream");
    stages.innerHTML = "";
    // one item per step: 'started' opens it (running), its finish closes the same item
    source.addEventListener("node", function (msg) {
      var data = JSON.parse(msg.data);
      var info = data.data || {};
      var open = null;
      stages.querySelectorAll("li.running").forEach(function (li) {
        if (li.dataset.node === data.node) open = li;
      });
      if (info.event === "progress") {  // how far a running step is: it stays running
        if (open && info.summary) open.textContent = humanStep(data.node) + ": " + info.summary;
        return;
      }
      var li = info.event === "started" || !open ? document.createElement("li") : open;
      var summary = info.summary ? ": " + info.summary : "";
      if (li !== open) {
        li.dataset.node = data.node;
        stages.appendChild(li);
      }
      li.className = info.event === "started" ? "running" : "done";
      if (summary || li !== open) li.textContent = humanStep(data.node) + summary;
    });
    source.addEventListener("status", function (msg) {
      var value = JSON.parse(msg.data).data.status;
      if (value === "failed" || value === "cancelled") {
        stages.querySelectorAll("li.running").forEach(function (li) { li.className = "failed"; });
      }
      status.className = "status " + value;
      status.textContent = (box.dataset.labels ? JSON.parse(box.dataset.labels) : {})[value] || value;
    });
    source.addEventListener("end", function (msg) {
      source.close();
      var data = JSON.parse(msg.data);
      finishJob(box, data.status);
    });
  }

  document.querySelectorAll(".job-live").forEach(function (box) {
    if (box.dataset.status === "queued" || box.dataset.status === "running") followJob(box);
  });

  var uploads = document.getElementById("uploads");
  var labels = uploads ? JSON.parse(uploads.dataset.labels || "{}") : {};

  function showUpload(li, u) {
    var state = li.querySelector("[data-role=state]");
    var stages = li.querySelector("[data-role=stages]");
    var label = labels[u.state] || u.state;
    if (u.state === "embed" && u.total) label += " (" + u.done + "/" + u.total + ")";
    state.textContent = label;
    state.className = "state state-" + u.state;
    stages.textContent = "";
    (u.stages || []).forEach(function (name, n) {
      var item = document.createElement("li");
      var last = n === u.stages.length - 1;
      item.dataset.state = name;
      item.textContent = labels[name] || name;
      // the stage a file is in runs until the next begins; the one it failed in failed
      if (last && !u.finished) item.className = "current";
      else if (last && u.state === "failed") item.className = "failed";
      else item.className = "done";
      stages.appendChild(item);
    });
    if (!u.finished) return false;
    var result = li.querySelector("[data-role=result]");
    result.textContent = "";
    if (u.href) {
      if (u.state === "exists") result.append((labels.exists || "already in the library") + ": ");
      var a = document.createElement("a");
      a.href = u.href;
      a.textContent = u.title || u.name;
      result.appendChild(a);
    } else {
      var p = document.createElement("span");
      p.className = "problem";
      p.textContent = u.reason;
      result.appendChild(p);
    }
    li.dataset.finished = "true";
    return true;
  }

  function pollUpload(li) {
    fetch("/ui/uploads/" + encodeURIComponent(li.dataset.upload), { headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (u) {
        if (u && showUpload(li, u)) return;
        window.setTimeout(function () { pollUpload(li); }, 300);
      })
      .catch(function () { window.setTimeout(function () { pollUpload(li); }, 1000); });
  }

  document.querySelectorAll(".upload[data-finished=false]").forEach(pollUpload);

  // tables reflow on a phone: each row a block, each cell labelled with its column's header
  document.querySelectorAll("table").forEach(function (table) {
    var rows = Array.prototype.slice.call(table.rows);
    var head = rows[0];  // <thead>'s row, or a first row of <th> only
    if (!head || Array.prototype.some.call(head.cells, function (c) { return c.tagName !== "TH"; })) return;
    var names = Array.prototype.map.call(head.cells, function (th) { return th.textContent.trim(); });
    table.classList.add("reflow");
    head.classList.add("reflow-head");
    rows.slice(1).forEach(function (tr) {
      Array.prototype.forEach.call(tr.cells, function (cell, n) {
        if (names[n] && !cell.hasAttribute("data-label")) cell.setAttribute("data-label", names[n]);
      });
    });
  });

  var marked = document.querySelector(".highlight");
  if (marked) marked.scrollIntoView({ block: "center" });
})();
