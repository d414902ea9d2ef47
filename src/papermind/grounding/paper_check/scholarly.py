"""The bibliography checked against the scholarly sources, as check findings: a reference
check's verdicts (domain/scholar.py) turned into CheckFindings at each entry's page and line
(a parsed paper) or at its ``.bib`` file and line (a LaTeX project, whose entries are read
as references by ``bib_references``: clean titles, authors, years and DOIs are the best
input the sources get). One finding per entry, the most severe: retracted (high), then a
field that differs from the record or an entry no source knows (medium). A source that was
down is a note."""

from __future__ import annotations

import re
from collections.abc import Callable

from papermind.domain.check import BibEntry, CheckFinding, LatexProject
from papermind.domain.paper import Paper, Reference
from papermind.domain.scholar import ReferencesReport, ReferenceVerdict
from papermind.grounding.paper_check.spots import Spot, at_line, finding

_FIXES = {"reference_retracted": "cite the work only as retracted, or drop it",
          "reference_mismatch": "correct the entry to match the published record",
          "reference_not_found": "check the entry against the work you read; correct or remove it"}


def scholarly_findings(paper: Paper, report: ReferencesReport) -> tuple[list[CheckFinding],
                                                                      list[str]]:
    """(findings for retracted, mismatched and unknown entries; notes on sources down)."""
    entries = {ref.index: ref for ref in paper.references}
    return _findings(report, lambda index: _spot(paper, entries.get(index)),
                     lambda index: f"bibliography entry {index}")


def project_findings(project: LatexProject, report: ReferencesReport
                     ) -> tuple[list[CheckFinding], list[str]]:
    """The same, for a project whose ``bib_references`` were checked: at file:line."""
    entries = dict(enumerate(project.bib, start=1))

    def spot(index: int) -> Spot | None:
        entry = entries.get(index)
        return None if entry is None else Spot(entry.source.text, 0, entry.source.line,
                                               entry.source.file)

    return _findings(report, spot, lambda index: f"entry '{entries[index].key}'"
                     if index in entries else f"entry {index}")


def bib_references(project: LatexProject) -> list[Reference]:
    """The project's .bib entries as references to look up (index = position in the list)."""
    return [_reference(i, entry) for i, entry in enumerate(project.bib, start=1)]


def _reference(index: int, entry: BibEntry) -> Reference:
    f = entry.fields
    year = re.search(r"\b(1[5-9]\d\d|20\d\d)\b", f.get("year", "") or f.get("date", ""))
    eprint = f.get("eprint", "") if "arxiv" in (f.get("archiveprefix", "") +
                                               f.get("eprinttype", "")).lower() else ""
    title = _plain(f.get("title", ""))
    authors = [_plain(a) for a in re.split(r"\s+and\s+", f.get("author", "")) if a.strip()]
    venue = next((_plain(f[k]) for k in ("journal", "booktitle", "publisher") if f.get(k)), None)
    raw = ". ".join(x for x in (", ".join(authors), title, venue or "", year.group(1) if year
                                else "") if x)
    return Reference(key=entry.key, index=index, raw=raw or entry.key, authors=authors,
                     title=title or None, year=int(year.group(1)) if year else None,
                     venue=venue, doi=f.get("doi") or None, arxiv=eprint or None)


def _plain(value: str) -> str:
    """A BibTeX value without braces and simple markup ({\\'e} -> e, \\emph{x} -> x)."""
    value = re.sub(r"\\[a-zA-Z]+\s*|\\.", "", value)
    return " ".join(value.replace("{", "").replace("}", "").replace("~", " ").split())


def _findings(report: ReferencesReport, spot_of: Callable[[int], Spot | None],
              name: Callable[[int], str]) -> tuple[list[CheckFinding], list[str]]:
    found = []
    for verdict in report.references:
        kind = _kind(verdict)
        if kind is None:
            continue
        fix = "; ".join([*verdict.notes, _FIXES[kind]])
        found.append(finding(kind, "high" if kind == "reference_retracted" else "medium",
                             "citations", f"{name(verdict.index)}: {verdict.message}",
                             spot_of(verdict.index), text=verdict.text, fix=fix))
    notes = [s.message or f"{s.label} is down" for s in report.sources if s.status == "down"]
    return found, notes


def _kind(verdict: ReferenceVerdict) -> str | None:
    if verdict.retracted:
        return "reference_retracted"
    if verdict.status == "mismatch":
        return "reference_mismatch"
    return "reference_not_found" if verdict.status == "not_found" else None


def _spot(paper: Paper, ref: Reference | None) -> Spot | None:
    if ref is None or ref.page is None or ref.line is None:
        return None
    return at_line(paper, ref.page, ref.line)
