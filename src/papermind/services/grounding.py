"""Locate a quote in a stored paper or in a file parsed on the fly (the `locate` use case)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from papermind.domain import Evidence, Line, Paper
from papermind.errors import InputError
from papermind.grounding import GroundingEngine
from papermind.services.library import LibraryService


@dataclass(frozen=True)
class LocateResult:
    """What `locate` found: the paper, the evidence and the paper's lines it covers."""

    paper: Paper
    evidence: Evidence
    lines: list[Line]


def load_paper(library: LibraryService, target: str) -> Paper:
    """A file path is parsed without storing it; anything else is a library id (or prefix)."""
    path = Path(target).expanduser()
    if path.is_file():
        return library.parse(path)
    if path.suffix.lower() in {".pdf", ".txt", ".md"} or "/" in target:
        raise InputError(f"no such file: {target}")
    return library.show(target).paper


def locate_quote(library: LibraryService, target: str, quote: str,
                 claim: str | None = None) -> LocateResult:
    """Locate ``quote`` in the paper ``target`` names; check ``claim`` against it if given."""
    paper = load_paper(library, target)
    evidence = GroundingEngine(max_papers=1).ground(paper, quote, claim)
    return LocateResult(paper, evidence, covered_lines(paper, evidence))


def covered_lines(paper: Paper, evidence: Evidence) -> list[Line]:
    """The flow lines from the anchor's first line to its last (empty when not found)."""
    anchor = evidence.anchor
    if anchor is None:
        return []
    start = (anchor.page, anchor.line_start)
    end = (anchor.page_end or anchor.page, anchor.line_end)
    return [line for line in paper.lines() if start <= (line.page, line.n) <= end]
