// PaperMind's only script: live job progress, and citations that open the cited page.
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
    if (!el || el.tagName === "A") return;
    var href = citeTarget(el);
    if (href) { event.preventDefault(); window.location.assign(href); }
  });
  document.querySelectorAll(".cite[data-page]").forEach(function (el) {
    if (citeTarget(el)) { el.setAttribute("role", "link"); el.setAttribute("tabindex", "0"); }
  });

  var job = document.getElementById("job");
  if (job && (job.dataset.status === "queued" || job.dataset.status === "running")) {
    var progress = document.getElementById("progress");
    var status = document.getElementById("status");
    var source = new EventSource("/api/jobs/" + job.dataset.job + "/stream");
    progress.innerHTML = "";
    source.addEventListener("node", function (msg) {
      var data = JSON.parse(msg.data);
      var li = document.createElement("li");
      li.textContent = data.node + " " + (data.data.event || "") + " " + (data.data.summary || "");
      progress.appendChild(li);
    });
    source.addEventListener("status", function (msg) {
      var data = JSON.parse(msg.data);
      status.textContent = data.data.status;
      status.className = "status " + data.data.status;
    });
    source.addEventListener("end", function (msg) {
      source.close();
      var data = JSON.parse(msg.data);
      status.textContent = data.status;
      status.className = "status " + data.status;
      job.dataset.status = data.status;
      if (data.status === "completed") document.getElementById("report-link").hidden = false;
      else window.location.reload();
    });
  }

  var marked = document.querySelector(".highlight");
  if (marked) marked.scrollIntoView({ block: "center" });
})();
