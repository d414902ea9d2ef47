"""Hand-made papers, a small keyword Retriever over them, and a context builder for tests."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from papermind.domain import Anchor, Line, Page, Paper, Paragraph, SearchHit, Segment
from papermind.errors import NotFoundError
from papermind.grounding import GroundingEngine
from papermind.workflows.deep_qa.context import QAContext

_WORD = re.compile(r"[a-z0-9]+")


def make_paper(name: str, paragraphs: Sequence[str], *, year: int | None = 2020) -> Paper:
    """One line per paragraph (a paragraph per chunk), 30 lines per page."""
    paper_id = hashlib.sha256(name.encode()).hexdigest()
    lines: list[Line] = []
    blocks: list[Paragraph] = []
    for i, text in enumerate(paragraphs):
        page, n = divmod(i, 30)
        lines.append(Line(page=page + 1, n=n + 1, text=text))
        blocks.append(Paragraph(id=f"p{i}", text=text, segments=[Segment(
            start=0, end=len(text), page=page + 1, line=n + 1, line_start=0,
            line_end=len(text))]))
    pages = [Page(number=p, lines=[ln for ln in lines if ln.page == p])
             for p in sorted({ln.page for ln in lines})]
    return Paper(id=paper_id, source_name=f"{name}.txt", source_type="txt", title=name,
                 year=year, pages=pages, paragraphs=blocks)


@dataclass
class Library:
    """Papers by id; a PaperSource."""

    papers: dict[str, Paper] = field(default_factory=dict)

    def add(self, paper: Paper) -> Paper:
        self.papers[paper.id] = paper
        return paper

    def get(self, paper_id: str) -> Paper:
        if paper_id not in self.papers:
            raise NotFoundError(f"no paper {paper_id}")
        return self.papers[paper_id]


@dataclass
class KeywordRetriever:
    """Scores each line by words shared with the query; records every call."""

    library: Library
    calls: list[dict[str, Any]] = field(default_factory=list)

    def search(self, query: str, *, paper_ids: Sequence[str] | None = None,
               mode: str = "hybrid", k: int = 10, section_kinds: Any = None,
               year_min: int | None = None, year_max: int | None = None) -> list[SearchHit]:
        self.calls.append({"query": query, "mode": mode, "paper_ids": paper_ids,
                           "year_min": year_min, "year_max": year_max})
        wanted = set(_WORD.findall(query.lower()))
        hits = []
        for paper in self.library.papers.values():
            if paper_ids and paper.id not in paper_ids:
                continue
            if (year_min and (paper.year or 0) < year_min) or (
                    year_max and (paper.year or 9999) > year_max):
                continue
            for line in paper.lines():
                score = len(wanted & set(_WORD.findall(line.text.lower())))
                if score:
                    hits.append(SearchHit(
                        paper_id=paper.id, chunk_id=f"{paper.id[:8]}:{line.page}:{line.n}",
                        score=float(score), text=line.text, year=paper.year,
                        anchor=Anchor(paper_id=paper.id, page=line.page, line_start=line.n,
                                      line_end=line.n)))
        return sorted(hits, key=lambda h: -h.score)[:k]


def context(gateway: Any, library: Library, retriever: Any | None = None,
            **limits: Any) -> QAContext:
    """A QAContext over the fake library with the real grounding engine."""
    return QAContext(gateway=gateway, retriever=retriever or KeywordRetriever(library),
                     papers=library, grounder=GroundingEngine(), **limits)


OFFENSIVE = [
    "We present OLID, a new dataset of English tweets annotated for offensive language.",
    "The dataset contains 14,100 tweets annotated by five annotators.",
    "We compare a linear SVM, a BiLSTM and a CNN on the three levels of the annotation.",
    "The CNN achieves the best macro F1 of 0.80 on offensive language detection.",
]
OFFENSIVE_LATER = [
    "We revisit OLID with transformer models on English tweets.",
    "In our experiments the BiLSTM achieves the best macro F1 on offensive language detection.",
    "The dataset we use contains 14,100 tweets.",
]


def judge(verdict: str = "supported", reason: str = "the cited text says so") -> Any:
    """A scripted support judge giving every claim in its prompt ``verdict``."""
    def answer(messages: Any) -> dict[str, Any]:
        text = "\n".join(str(m.content) for m in messages)
        ids = re.findall(r"\[C(\d+)\] CLAIM", text)
        return {"verdicts": [{"id": f"C{n}", "verdict": verdict, "reason": reason}
                             for n in ids]}
    return answer


def or_judge(response: Any, verdict: str = "supported") -> Any:
    """``response``, unless the prompt is the support judge's (then ``judge(verdict)``): for
    checker queues where an earlier checker call may be skipped."""
    def answer(messages: Any) -> Any:
        text = "\n".join(str(m.content) for m in messages)
        return judge(verdict)(messages) if "[C1] CLAIM" in text else response
    return answer
