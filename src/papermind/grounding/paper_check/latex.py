"""The same checks on a LaTeX project's source: citation keys with no .bib entry, entries
listed twice or without a year or venue, \\ref to labels that do not exist, tables and figures
never referred to, an author block that is not anonymous. Anchors are file:line."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rapidfuzz import fuzz

from papermind.domain.check import BibEntry, CheckFinding, LatexProject
from papermind.grounding.bibliography import plain
from papermind.grounding.paper_check.spots import Spot, finding, source_spots

_CITE = re.compile(r"\\(?:no)?cite[a-zA-Z]*\*?\s*(?:\[[^\]]*\]\s*){0,2}\{([^}]*)\}")
_REF = re.compile(r"\\(?:ref|autoref|cref|Cref|eqref|pageref|vref|nameref|subref)\*?\{([^}]*)\}")
_LABEL = re.compile(r"\\label\{([^}]*)\}")
_BEGIN = re.compile(r"\\begin\{(table|figure|wraptable|wrapfigure|sidewaystable)\*?\}")
_END = re.compile(r"\\end\{(table|figure|wraptable|wrapfigure|sidewaystable)\*?\}")
_AUTHOR = re.compile(r"\\author\s*(?:\[[^\]]*\])?\{")
_SECTION = re.compile(r"\\(?:sub)*(?:section|paragraph|chapter)\*?\{([^}]*)\}")
VENUE_FIELDS = {"article": ("journal", "journaltitle"), "inproceedings": ("booktitle",),
                "incollection": ("booktitle",), "conference": ("booktitle",)}
"""Entry type -> fields that name its venue (other types are not judged)."""


def latex_findings(project: LatexProject) -> list[CheckFinding]:
    """Citation, bibliography and label findings of a LaTeX project."""
    spots = source_spots(project)
    cited = _cited_keys(spots)
    out = _citations(spots, {e.key for e in project.bib})
    out += _bib_findings(project.bib, {k for k, _ in cited})
    out += _label_findings(spots)
    return out


def body_spots(project: LatexProject) -> list[Spot]:
    """Lines from \\begin{document} on (all lines when there is none)."""
    spots = source_spots(project)
    start = next((i for i, s in enumerate(spots) if "\\begin{document}" in s.text), 0)
    return spots[start:]


def headings(project: LatexProject) -> list[str]:
    """Titles of \\section, \\subsection, \\paragraph... in document order."""
    return [m.group(1) for ln in project.lines for m in _SECTION.finditer(ln.text)]


def author_block(project: LatexProject) -> list[CheckFinding]:
    """The \\author{...} block when it does not say 'anonymous'."""
    for ln in source_spots(project):
        match = _AUTHOR.search(ln.text)
        if match and "anonymous" not in ln.text.lower() and ln.text[match.end():].strip(" }"):
            return [finding("author_identity", "high", "anonymity",
                            "the author block names the authors", ln,
                            fix="use \\author{Anonymous authors} (or the venue's anonymous option)")]
    return []


def _cited_keys(spots: Sequence[Spot]) -> list[tuple[str, Spot]]:
    return [(key.strip(), spot) for spot in spots for m in _CITE.finditer(spot.text)
            for key in m.group(1).split(",") if key.strip() and key.strip() != "*"]


def _citations(spots: Sequence[Spot], keys: set[str]) -> list[CheckFinding]:
    return [finding("citation_without_entry", "high", "citations",
                    f"\\cite key '{key}' has no entry in the .bib files", spot,
                    fix=f"add an entry '{key}' to the .bib file or correct the key")
            for key, spot in _cited_keys(spots) if key not in keys]


def _bib_findings(entries: Sequence[BibEntry], cited: set[str]) -> list[CheckFinding]:
    out: list[CheckFinding] = []
    seen: dict[str, BibEntry] = {}
    titles: list[tuple[str, str, BibEntry]] = []
    for e in entries:
        spot = Spot(e.source.text, 0, e.source.line, e.source.file)
        title, year = plain(e.fields.get("title", "")), e.fields.get("year", e.fields.get("date", ""))[:4]
        if e.key in seen:
            out.append(finding("duplicate_entry", "low", "citations",  # BibTeX keeps the first
                               f"the key '{e.key}' is defined twice (first at "
                               f"{seen[e.key].source.label()})", spot, fix="remove one of the two"))
            continue
        twin = next((t for t in titles if len(title) >= 20 and t[1] == year
                     and fuzz.ratio(t[0], title) >= 95), None)
        if twin is not None:
            out.append(finding("duplicate_entry", "medium", "citations",
                               f"'{e.key}' lists the same work as '{twin[2].key}'", spot,
                               fix=f"keep one key and cite it everywhere ({twin[2].key})"))
        seen[e.key] = e
        titles.append((title, year, e))
        if e.key in cited:
            out += _incomplete(e, spot)
    return out


def _incomplete(entry: BibEntry, spot: Spot) -> list[CheckFinding]:
    out = []
    if not (entry.fields.get("year") or entry.fields.get("date")):
        out.append(finding("entry_missing_year", "low", "citations",
                           f"'{entry.key}' has no year", spot, fix="add year = {...}"))
    venue_fields = VENUE_FIELDS.get(entry.type, ())
    if venue_fields and not any(entry.fields.get(f) for f in venue_fields):
        out.append(finding("entry_missing_venue", "low", "citations",
                           f"'{entry.key}' ({entry.type}) has no {venue_fields[0]}", spot,
                           fix=f"add {venue_fields[0]} = {{...}}"))
    return out


def _label_findings(spots: Sequence[Spot]) -> list[CheckFinding]:
    labels: dict[str, tuple[str | None, Spot]] = {}
    env: str | None = None
    for spot in spots:
        begin, end = _BEGIN.search(spot.text), _END.search(spot.text)
        env = _kind(begin.group(1)) if begin else env
        for m in _LABEL.finditer(spot.text):
            labels.setdefault(m.group(1).strip(), (env, spot))
        env = None if end else env
    referred: set[str] = set()
    out = []
    for spot in spots:
        for m in _REF.finditer(spot.text):
            for key in (k.strip() for k in m.group(1).split(",") if k.strip()):
                referred.add(key)
                if key not in labels:
                    out.append(finding("reference_to_missing_label", "high", "presentation",
                                       f"'{m.group(0)}' refers to a label that is never defined",
                                       spot, fix=f"add \\label{{{key}}} or correct the key"))
    for key, (kind, spot) in labels.items():
        if kind is not None and key not in referred:
            out.append(finding(f"{kind}_never_referenced", "low", "presentation",
                               f"the {kind} labelled '{key}' is never referred to", spot,
                               fix=f"refer to it with \\ref{{{key}}} where it is discussed"))
    return out


def _kind(env: str) -> str:
    return "table" if "table" in env else "figure"
