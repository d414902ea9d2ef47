"""The pre-submission check: every model-free check of a paper (or a LaTeX project) as one
list of CheckFindings. ``check_paper`` and ``check_project`` run the table of checks below
(``CHECKS``); a new check is one function returning findings and one row."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from papermind.domain.check import SEVERITY_RANK, CheckFinding, CheckReport, LatexProject
from papermind.domain.paper import Paper, Severity
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
from papermind.grounding.paper_check.review_mode import review_mode
from papermind.grounding.paper_check.scholarly import project_findings, scholarly_findings
from papermind.grounding.paper_check.spots import Spot, paper_spots, source_spots
from papermind.grounding.paper_check.venues import (
    Venue,
    page_limit_findings,
    venue_findings,
    venues,
)

__all__ = ["CHECKS", "CheckKind", "CheckOptions", "check_paper", "check_project", "venues"]


@dataclass(frozen=True)
class CheckOptions:
    """How to check: the venue's requirements (None: none), double-blind or not, the
    predicate that says a line addresses a reviewer or model (ingestion's), and the
    bibliography's check against the scholarly sources (None: offline, not checked)."""

    addresses: Callable[[str], bool]
    venue: Venue | None = None
    anonymous: bool = False
    scholarly: ReferencesReport | None = None


Found = tuple[list[CheckFinding], list[str]]
"""What one check returns: its findings and the notes it adds to the report."""


@dataclass(frozen=True)
class PaperInput:
    """What a check of a parsed paper reads: the paper, its text spots and the options."""

    paper: Paper
    spots: list[Spot]
    options: CheckOptions


@dataclass(frozen=True)
class ProjectInput:
    """What a check of a LaTeX project reads: the project, its body spots and the options."""

    project: LatexProject
    spots: list[Spot]
    options: CheckOptions


@dataclass(frozen=True)
class CheckKind:
    """One row of the check table: a name (what `papermind check` reports as run), the
    function on a parsed paper and/or on a LaTeX project (None: not checked there), and the
    highest severity the row may give a finding kind (``ceiling``), calibrated on real
    papers: a kind whose HIGH findings were right less than 9 times in 10 is MEDIUM
    (bench/results/real_papers.md)."""

    name: str
    on_paper: Callable[[PaperInput], Found] | None = None
    on_project: Callable[[ProjectInput], Found] | None = None
    ceiling: tuple[tuple[str, Severity], ...] = ()

    def capped(self, found: Found) -> Found:
        """``found`` with each finding's severity at most its kind's ceiling."""
        caps = dict(self.ceiling)
        findings, notes = found
        return [f.model_copy(update={"severity": caps[f.kind]})
                if f.kind in caps and SEVERITY_RANK[f.severity] > SEVERITY_RANK[caps[f.kind]]
                else f for f in findings], notes


def _only(found: list[CheckFinding]) -> Found:
    return found, []


def _venue_on_paper(given: PaperInput) -> Found:
    venue = given.options.venue
    if venue is None:
        return [], []
    found = venue_findings(venue, given.spots, [s.title for s in given.paper.sections])
    limit, note = page_limit_findings(venue, given.paper)
    return found + limit, [note] if note else []


def _venue_on_project(given: ProjectInput) -> Found:
    venue = given.options.venue
    if venue is None:
        return [], []
    notes = [f"the {venue.name} page limit is checked on the compiled PDF"] \
        if venue.page_limit is not None else []
    return venue_findings(venue, [], headings(given.project)), notes


def _scholarly(given: PaperInput) -> Found:
    if given.options.scholarly is None:
        return [], []
    return scholarly_findings(given.paper, given.options.scholarly)


def _scholarly_project(given: ProjectInput) -> Found:
    if given.options.scholarly is None:
        return [], []
    return project_findings(given.project, given.options.scholarly)


def _anonymous(found: Callable[[list[Spot]], list[CheckFinding]]) -> Callable[..., Found]:
    def check(given: PaperInput | ProjectInput) -> Found:
        return (found(given.spots) if given.options.anonymous else []), []
    return check


def _author_block(given: ProjectInput) -> Found:
    """The \\author block of a double-blind submission, unless the venue style compiles in
    review mode and prints 'Anonymous authors' in its place."""
    if not given.options.anonymous:
        return [], []
    mode = review_mode(source_spots(given.project))
    if mode is not None and mode.anonymous:
        return [], [mode.note()]
    found = author_block(given.project)
    if mode is not None:
        fix = f"compile the {mode.venue} style in review mode (without {mode.final_by})"
        found = [f.model_copy(update={"fix": fix}) for f in found]
    return found, []


def _anonymity_on_project(given: ProjectInput) -> Found:
    """Anonymity findings of a LaTeX project; none on what the style leaves out of a review
    copy (the author block, its e-mails and \\thanks; NeurIPS' ack environment)."""
    if not given.options.anonymous:
        return [], []
    found = anonymity_findings(given.spots)
    mode = review_mode(source_spots(given.project))
    if mode is not None and mode.anonymous:
        hidden = mode.hidden(source_spots(given.project))
        found = [f for f in found if f.kind != "author_identity" and f.source is not None
                 and (f.source.file, f.source.line) not in hidden]
    return found, []


CHECKS: tuple[CheckKind, ...] = (
    CheckKind("numbers", on_paper=lambda g: _only(number_check_findings(g.paper)),
              on_project=lambda g: ([], ["numbers against tables are checked on the compiled "
                                         "PDF, not the source"])),
    CheckKind("citations", on_paper=lambda g: _only(citation_findings(g.paper)),
              ceiling=(("citation_without_entry", "medium"),)),
    CheckKind("labels", on_paper=lambda g: _only(label_findings(g.paper)),
              ceiling=(("reference_to_missing_label", "medium"),)),
    CheckKind("latex", on_project=lambda g: _only(latex_findings(g.project))),
    CheckKind("ingest", on_paper=lambda g: _only(ingest_findings(g.paper))),
    CheckKind("instructions",
              on_paper=lambda g: _only(instruction_findings(g.spots, g.options.addresses)),
              on_project=lambda g: _only(instruction_findings(g.spots, g.options.addresses))),
    CheckKind("anonymity", on_paper=_anonymous(anonymity_findings),
              on_project=_anonymity_on_project),
    CheckKind("acronyms",
              on_paper=lambda g: _only(acronym_findings(before_bibliography(g.paper, g.spots))),
              on_project=lambda g: _only(acronym_findings(g.spots))),
    CheckKind("author_block", on_project=_author_block),
    CheckKind("venue", on_paper=_venue_on_paper, on_project=_venue_on_project),
    CheckKind("scholarly", on_paper=_scholarly, on_project=_scholarly_project),
)
"""Every model-free check, in report order. A new check is a function and one row here."""


def check_paper(paper: Paper, options: CheckOptions) -> CheckReport:
    """Every finding of a parsed paper."""
    given = PaperInput(paper, paper_spots(paper), options)
    found, notes = _run([row.capped(row.on_paper(given)) for row in CHECKS if row.on_paper])
    return _report(found, options, notes, paper_id=paper.id, title=paper.title,
                   source_name=paper.source_name)


def check_project(project: LatexProject, options: CheckOptions) -> CheckReport:
    """Every finding of a LaTeX project, anchored at file:line."""
    given = ProjectInput(project, body_spots(project), options)
    found, notes = _run([row.capped(row.on_project(given)) for row in CHECKS if row.on_project])
    return _report(found, options, list(project.warnings) + notes, source_name=project.main)


def _run(results: Sequence[Found]) -> Found:
    found: list[CheckFinding] = []
    notes: list[str] = []
    for findings, more in results:
        found += findings
        notes += more
    return found, notes


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
