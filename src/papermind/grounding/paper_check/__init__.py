"""The pre-submission check: every model-free check of a paper (or a LaTeX project) as one
list of CheckFindings. ``check_paper`` and ``check_project`` run the table of checks below;
a new check is one function returning findings and one row."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from papermind.domain.check import SEVERITY_RANK, CheckFinding, CheckReport, LatexProject
from papermind.domain.paper import Paper
from papermind.domain.scholar import ReferencesReport
from papermind.grounding.paper_check.acronyms import acronym_findings
from papermind.grounding.paper_check.anonymity import anonymity_findings
from papermind.grounding.paper_check.bibliography import before_bibliography, citation_findings
from papermind.grounding.paper_check.instructions import ingest_findings, instruction_findings
from papermind.grounding.paper_check.labels import label_findings
from papermind.grounding.paper_check.latex import (
    author_block,
    body_spots,
    headings,
    latex_findings,
)
from papermind.grounding.paper_check.numbers import number_check_findings
from papermind.grounding.paper_check.scholarly import scholarly_findings
from papermind.grounding.paper_check.spots import Spot, paper_spots
from papermind.grounding.paper_check.venues import (
    Venue,
    page_limit_findings,
    venue_findings,
    venues,
)

__all__ = ["CheckOptions", "check_paper", "check_project", "venues"]


@dataclass(frozen=True)
class CheckOptions:
    """How to check: the venue's requirements (None: none), double-blind or not, the
    predicate that says a line addresses a reviewer or model (ingestion's), and the
    bibliography's check against the scholarly sources (None: offline, not checked)."""

    addresses: Callable[[str], bool]
    venue: Venue | None = None
    anonymous: bool = False
    scholarly: ReferencesReport | None = None


def check_paper(paper: Paper, options: CheckOptions) -> CheckReport:
    """Every finding of a parsed paper."""
    spots = paper_spots(paper)
    found = number_check_findings(paper) + citation_findings(paper) + label_findings(paper)
    found += ingest_findings(paper) + _text_findings(spots, options)
    found += acronym_findings(before_bibliography(paper, spots))
    notes = []
    if options.venue is not None:
        found += venue_findings(options.venue, spots, [s.title for s in paper.sections])
        limit, note = page_limit_findings(options.venue, paper)
        found += limit
        notes += [note] if note else []
    if options.scholarly is not None:
        online, down = scholarly_findings(paper, options.scholarly)
        found += online
        notes += down
    return _report(found, options, notes, paper_id=paper.id, title=paper.title,
                   source_name=paper.source_name)


def check_project(project: LatexProject, options: CheckOptions) -> CheckReport:
    """Every finding of a LaTeX project, anchored at file:line."""
    spots = body_spots(project)
    found = latex_findings(project) + _text_findings(spots, options) + acronym_findings(spots)
    if options.anonymous:
        found += author_block(project)
    notes = list(project.warnings)
    notes.append("numbers against tables are checked on the compiled PDF, not the source")
    if options.venue is not None:
        found += venue_findings(options.venue, [], headings(project))
        if options.venue.page_limit is not None:
            notes.append(f"the {options.venue.name} page limit is checked on the compiled PDF")
    return _report(found, options, notes, source_name=project.main)


def _text_findings(spots: Sequence[Spot], options: CheckOptions) -> list[CheckFinding]:
    found = instruction_findings(spots, options.addresses)
    if options.anonymous:
        found += anonymity_findings(spots)
    return found


def _report(found: list[CheckFinding], options: CheckOptions, notes: list[str],
            **about: str) -> CheckReport:
    unique: dict[tuple[str, str, str], CheckFinding] = {}
    for f in found:
        unique.setdefault((f.kind, f.where(), f.message), f)
    ordered = sorted(unique.values(), key=lambda f: (-SEVERITY_RANK[f.severity], *_position(f)))
    return CheckReport(findings=ordered, notes=notes, anonymous=options.anonymous,
                       venue=options.venue.key if options.venue else None, **about)


def _position(f: CheckFinding) -> tuple[str, int, int]:
    if f.source is not None:
        return f.source.file, 0, f.source.line
    if f.anchor is not None:
        return "", f.anchor.page, f.anchor.line_start
    return "~", 0, 0
