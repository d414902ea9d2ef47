"""A finished job's report beside its paper: the stored JSON and HTML body, its evidence
items on one paper with the exact words each covers, and the BibTeX of the works it cites."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from papermind.domain import Paper
from papermind.domain.job import Job
from papermind.errors import NotFoundError
from papermind.grounding.quote_words import quote_words
from papermind.reports import as_evidence, span_spec
from papermind.services.job_runners import report_dir
from papermind.services.job_store import JobStore

if TYPE_CHECKING:
    from papermind.services.container import Container

_BODY = re.compile(r"<body[^>]*>(.*)</body>", re.S | re.I)
_OWN_STYLE = re.compile(r"<(style|script)\b[^>]*>.*?</\1\s*>", re.S | re.I)
HIGHLIGHT_KEY_SEP = "\n"
"""A citation's highlight key: its ``data-lines`` and ``data-text`` joined by this."""


@dataclass(frozen=True)
class StoredReport:
    """A completed job's report as written: ``data`` (report.json), ``body`` (the inside
    of report.html's body, without its own styles and scripts)."""

    job: Job
    data: dict[str, Any]
    body: str

    def paper_ids(self) -> list[str]:
        """The papers the job was about, else every paper its evidence cites, in order."""
        asked = self.job.request
        ids = [asked.paper_id] if asked.paper_id else list(asked.paper_ids)
        cited = [str(e["anchor"].get("paper_id") or "") for e in evidence_items(self.data)
                 if e.get("anchor")]
        return list(dict.fromkeys(i for i in ids + cited if i))


def load_report(container: Container, store: JobStore, job_id: str) -> StoredReport:
    """The stored report of a completed job (NotFoundError while it has none)."""
    job = store.get(job_id)
    folder = report_dir(container, job.id)
    if job.status != "completed" or not (folder / "report.json").is_file():
        raise NotFoundError(f"job {job_id} has no report yet ({job.status})")
    data = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    page = folder / "report.html"
    html = page.read_text(encoding="utf-8") if page.is_file() else ""
    return StoredReport(job=job, data=data if isinstance(data, dict) else {}, body=html_body(html))


def html_body(html: str) -> str:
    """The inside of a report page's body, its own ``<style>`` and ``<script>`` removed
    (the page around it styles it)."""
    found = _BODY.search(html)
    return _OWN_STYLE.sub("", found.group(1) if found else html).strip()


def evidence_items(data: Any) -> list[dict[str, Any]]:
    """Every evidence item (the one evidence JSON shape) anywhere in a report, in order."""
    out: list[dict[str, Any]] = []
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(reversed(node))
        elif isinstance(node, dict):
            if {"quote", "anchor", "status", "support"} <= node.keys():
                out.append(node)
            else:
                stack.extend(reversed(list(node.values())))
    return out


def highlights(paper: Paper, data: Any) -> dict[str, list[list[int]]]:
    """For each found evidence item on ``paper``: its highlight key -> the words it covers,
    as ``[page, line, word index]``."""
    out: dict[str, list[list[int]]] = {}
    for item in evidence_items(data):
        evidence = as_evidence(item, paper_id=paper.id)
        anchor = evidence.anchor
        if anchor is None or (anchor.paper_id or paper.id) != paper.id:
            continue
        key = span_spec(anchor) + HIGHLIGHT_KEY_SEP + evidence.matched_text
        out[key] = [[w.page, w.line, w.index]
                    for w in quote_words(paper, anchor, evidence.matched_text)]
    return out


def cited_bibtex(container: Container, report: StoredReport) -> str:
    """BibTeX of the bibliography entries the report cites (resolved ones), of the one paper
    it is about; a comment when there is no such paper or entry."""
    from papermind.services.exports import cited_works, render

    ids = report.paper_ids()
    if len(ids) != 1:
        return "% this report is not about one paper: no bibliography to cite from\n"
    paper = container.library.get(container.papers.resolve(ids[0]))
    works = cited_works(report.data, paper)
    if not works:
        return "% this report cites no resolved bibliography entries\n"
    return render(works, "bibtex")
