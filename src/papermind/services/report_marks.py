"""What a report cites, for the reader: its evidence items on one paper with the exact words
each covers, the papers it is about, and the BibTeX of the bibliography entries it cites."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from papermind.domain import Paper
from papermind.domain.job import Job
from papermind.grounding.quote_words import quote_words
from papermind.reports import as_evidence, span_spec
from papermind.reports.json_walk import json_objects

if TYPE_CHECKING:
    from papermind.services.container import Container

HIGHLIGHT_KEY_SEP = "\n"
"""A citation's highlight key: its ``data-lines`` and ``data-text`` joined by this."""


def evidence_items(data: Any) -> list[dict[str, Any]]:
    """Every evidence item (the one evidence JSON shape) anywhere in a report, in order."""
    return [node for node in json_objects(data, enter=lambda node: not _is_evidence(node))
            if _is_evidence(node)]


def _is_evidence(node: dict[str, Any]) -> bool:
    return {"quote", "anchor", "status", "support"} <= node.keys()


def report_papers(job: Job, data: Any) -> list[str]:
    """The papers a job's report is about, else every paper its evidence cites, in order."""
    asked = job.request
    ids = [asked.paper_id] if asked.paper_id else list(asked.paper_ids)
    cited = [str(e["anchor"].get("paper_id") or "") for e in evidence_items(data)
             if isinstance(e.get("anchor"), dict)]
    return list(dict.fromkeys(i for i in ids + cited if i))


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


def cited_bibtex(container: Container, job: Job, data: Any) -> str:
    """BibTeX of the bibliography entries the report cites (resolved ones), of the one paper
    it is about; a comment when there is no such paper or entry."""
    from papermind.services.exports import cited_works, render

    ids = report_papers(job, data)
    if len(ids) != 1:
        return "% this report is not about one paper: no bibliography to cite from\n"
    paper = container.library.get(container.papers.resolve(ids[0]))
    works = cited_works(data, paper)
    if not works:
        return "% this report cites no resolved bibliography entries\n"
    return render(works, "bibtex")
