"""Ground text in a stored paper or in a file parsed on the fly: the `locate` and `verify`
use cases."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from papermind.domain import Evidence, Line, Paper, Support
from papermind.errors import InputError
from papermind.grounding import GroundingEngine, parse_cited
from papermind.llm import Gateway
from papermind.reports import evidence_json, support_json
from papermind.services.library import LibraryService
from papermind.services.loops import run_loop
from papermind.workflows.support_judge import SupportItem, judge_support


@dataclass(frozen=True)
class LocateResult:
    """What `locate` found: the paper, the evidence and the paper's lines it covers."""

    paper: Paper
    evidence: Evidence
    lines: list[Line]


@dataclass(frozen=True)
class VerifyResult:
    """What `verify` decided: the evidence with its final support, the code verdict on its
    own, the lines covered, and notes from the checker (when judged)."""

    paper: Paper
    evidence: Evidence
    code: Support
    lines: list[Line]
    judged: bool = False
    notes: list[str] = field(default_factory=list)


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
    return locate_in(load_paper(library, target), quote, claim)


def locate_in(paper: Paper, quote: str, claim: str | None = None) -> LocateResult:
    """Locate ``quote`` in ``paper``; check ``claim`` against it if given."""
    evidence = GroundingEngine(max_papers=1).ground(paper, quote, claim)
    return LocateResult(paper, evidence, covered_lines(paper, evidence))


def verify(paper: Paper, claim: str, *, lines: str = "", quote: str = "",
           grounder: GroundingEngine | None = None, gateway: Gateway | None = None) -> VerifyResult:
    """Both verdicts on ``claim``: found (the cited ``lines``, or where ``quote`` is) and
    support (code checks; then the checker role when a ``gateway`` is given)."""
    if not claim.strip():
        raise InputError("the claim is empty")
    if not lines.strip() and not quote.strip():
        raise InputError("give the cited lines (--lines P:L[-L]) or a quote (--quote TEXT)")
    if lines.strip() and not parse_cited(lines).spans:
        raise InputError(f"not a line id: {lines!r} (expected e.g. 3:12, 3:12-14 or 3:40-4:2)")
    engine = grounder or GroundingEngine(max_papers=1)
    evidence = (engine.cite(paper, lines, quote=quote, claim=claim) if lines.strip()
                else engine.ground(paper, quote, claim))
    code = evidence.support
    if gateway is None:
        return VerifyResult(paper, evidence, code, covered_lines(paper, evidence))
    judged = run_loop(judge_support(gateway, [SupportItem(claim, (evidence,))], node="verify"))
    evidence = judged.items[0].evidence[0]
    return VerifyResult(paper, evidence, code, covered_lines(paper, evidence), True,
                        list(judged.notes))


def verify_claim(library: LibraryService, target: str, claim: str, *, lines: str = "",
                 quote: str = "", gateway: Gateway | None = None) -> VerifyResult:
    """``verify`` on the paper ``target`` names (a library id or a file, parsed unstored)."""
    return verify(load_paper(library, target), claim, lines=lines, quote=quote,
                  gateway=gateway)


def verify_json(result: VerifyResult) -> dict[str, Any]:
    """The `verify` answer (CLI --json and the API): the evidence item in its one JSON shape,
    both verdicts, the code verdict on its own (``code``), whether the checker ran
    (``judged``) and its notes, and the lines covered."""
    return {
        "paper": {"id": result.paper.id, "title": result.paper.title},
        "evidence": evidence_json(result.evidence),
        "found": result.evidence.found, "support": support_json(result.evidence.support),
        "verified": result.evidence.verified, "code": support_json(result.code),
        "judged": result.judged, "notes": list(result.notes),
        "lines": [{"page": ln.page, "n": ln.n, "text": ln.text} for ln in result.lines],
    }


def covered_lines(paper: Paper, evidence: Evidence) -> list[Line]:
    """The flow lines from the anchor's first line to its last (empty when not found)."""
    anchor = evidence.anchor
    if anchor is None:
        return []
    start = (anchor.page, anchor.line_start)
    end = (anchor.page_end or anchor.page, anchor.line_end)
    return [line for line in paper.lines() if start <= (line.page, line.n) <= end]
