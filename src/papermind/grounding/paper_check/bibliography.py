"""Citations and the bibliography of a parsed paper: markers with no entry, entries never
cited, the same work listed twice, entries without a year or a venue."""

from __future__ import annotations

import re
import unicodedata

from rapidfuzz import fuzz

from papermind.domain.check import CheckFinding
from papermind.domain.paper import Paper, Reference
from papermind.grounding.bibliography import Entry, name_key
from papermind.grounding.paper_check.citation_forms import labels_an_item, names_of, names_people
from papermind.grounding.paper_check.spots import Spot, at_line, finding
from papermind.grounding.references import ReferenceResolver

DUPLICATE_TITLE_SCORE = 95.0
"""Folded titles this similar (0-100, same year) are one work listed twice."""
MIN_TITLE = 20
"""Shorter folded titles are too generic to call two entries the same work."""
ENTRY_LINES = 6
"""Lines the last bibliography entry may run on for."""
MIN_READ = 0.8
"""A marker with no entry is HIGH only when this share of the paper's markers resolved;
below it the bibliography was likely misread (columns interleaved, entries run together)."""
MIN_MARKERS = 10
"""Markers a paper needs before the share above says anything."""
MIN_RESOLVED = 0.6
"""'Never cited' is only said when this share of the paper's markers resolved to entries:
below it the markers are what failed to parse, not the author's bibliography."""


def citation_findings(paper: Paper) -> list[CheckFinding]:
    """Every citation/bibliography finding of ``paper``."""
    if not paper.references:
        return []
    resolver = ReferenceResolver(paper)
    cited: set[str] = set()
    out: list[CheckFinding] = []
    resolved = 0
    entries = [Entry.of(ref) for ref in paper.references]
    undated = [e for e in entries if e.year is None]
    in_tables = {(ref.page, ref.line) for table in paper.tables for ref in table.lines}
    for citation in paper.citations:
        keys = resolver.keys_of(citation)
        cited.update(keys)
        resolved += bool(keys)
        line = at_line(paper, citation.page, citation.line)
        if not keys and _citation_like(citation.marker) and not _table_row(line.text) \
                and (citation.page, citation.line) not in in_tables \
                and not _undated_match(citation.marker, undated):
            out.append(_without_entry(citation.marker, line, entries))
    share = resolved / len(paper.citations) if paper.citations else 1.0
    if share < MIN_READ and len(paper.citations) >= MIN_MARKERS:
        out = [_unsure(f) for f in out]
    if share >= MIN_RESOLVED:
        out += _never_cited(paper, cited, fold_names(body_text(paper)))
    out += duplicate_entries(paper)
    out += incomplete_entries(paper)
    return out


def _unsure(found: CheckFinding) -> CheckFinding:
    """A missing entry said LOW: most markers did not resolve, so the list was misread."""
    if found.severity != "high":
        return found
    return found.model_copy(update={
        "severity": "low",
        "message": f"{found.message} (most citations match no entry: the bibliography may "
                   "not have been read in full)"})


def _without_entry(marker: str, line: Spot, entries: list[Entry]) -> CheckFinding:
    """HIGH when the marker names people in prose (or an author the bibliography lists under
    another year); LOW when its names have no surname's form ('PubMed (2018)': a data source)
    or one name labels a list item or a table cell ('- Transformer (2017): ...')."""
    names = names_of(marker)
    listed = any(e.has_author(name_key(n)) for n in names for e in entries)
    if listed or (names_people(marker) and not labels_an_item(marker, line.text)):
        return finding("citation_without_entry", "high", "citations",
                       f"{marker} matches no entry of the bibliography", line,
                       fix="add the missing entry to the bibliography or correct the citation")
    return finding("citation_without_entry", "low", "citations",
                   f"{marker} matches no entry of the bibliography; it may name a dataset, "
                   "system or venue rather than authors", line,
                   fix="if it is a citation, add the entry to the bibliography")


def _never_cited(paper: Paper, cited: set[str], body: str) -> list[CheckFinding]:
    """Well-formed entries no marker resolved to and whose first author's surname the text
    before the bibliography (``body``, folded) never prints (a marker the parser missed
    still names them)."""
    out = []
    for ref in paper.references:
        entry = Entry.of(ref)
        if ref.key in cited or not well_formed(entry) or not entry.surnames \
                or re.search(rf"\b{re.escape(entry.surnames[0])}", body):
            continue
        out.append(finding("entry_never_cited", "low", "citations",
                           f"bibliography entry {ref.index} is never cited in the text",
                           _entry_spot(paper, ref), text=ref.raw,
                           fix="cite it where it is used or remove it"))
    return out


def _citation_like(marker: str) -> bool:
    """Not a link, a path, a list of names with years ('(i.e., VisDA-2017 and ...)') or a
    method's acronym with a year ('SGC (2019a)') the marker parser took for a citation."""
    return not re.search(r"https?:|www\.|/|%|^\(?\s*(?:i\.e\.|e\.g\.)|-(?:19|20)\d\d"
                         r"|^\(?[A-Z0-9-]{2,}\s*\(", marker)


def _table_row(text: str) -> bool:
    """A results-table row ('ELMo (2018) 67.1 75.7 81.1 90.2'): a method named with its year."""
    return len(re.findall(r"(?<![\w.])\d+\.\d+(?![\w.])", text)) >= 4 or text.count("|") >= 2


def _undated_match(marker: str, undated: list[Entry]) -> bool:
    """Whether an entry without a parsed year has the marker's first author: the year is
    what failed to parse (the missing-year finding covers that entry)."""
    names = re.findall(r"[A-Z][\w'-]+", marker)
    return bool(names) and any(e.has_first(name_key(names[0])) for e in undated)


def well_formed(entry: Entry) -> bool:
    """An entry the parser split cleanly: a year, a title and no table or page debris."""
    raw = entry.ref.raw
    return (entry.year is not None and len(raw) >= 40 and len(entry.title) >= 8
            and not re.search(r"\||-----|\bTable \d+:|\bFigure \d+:", raw))


def body_text(paper: Paper) -> str:
    """The text outside the bibliography (an appendix after it cites too)."""
    spots = [(r.page, r.line) for r in paper.references if r.page and r.line]
    if not spots:
        return " ".join(ln.text for ln in paper.lines())
    first, last = min(spots), max(spots)
    end = (last[0], last[1] + ENTRY_LINES)
    return " ".join(ln.text for ln in paper.lines() if not first <= (ln.page, ln.n) <= end)


def before_bibliography(paper: Paper, spots: list[Spot]) -> list[Spot]:
    """The spots before the first bibliography entry (all when no entry has a position)."""
    first = min(((r.page, r.line) for r in paper.references if r.page and r.line),
                default=None)
    return [s for s in spots if first is None or (s.page, s.line) < first]


def fold_names(text: str) -> str:
    """Accents dropped, lower case: 'Mu\u02dcnoz-Gonz\u00b4alez' and 'Muñoz' compare."""
    plain = unicodedata.normalize("NFKD", text)
    return "".join(c for c in plain if c.isalpha() or c.isspace()).lower()


def duplicate_entries(paper: Paper) -> list[CheckFinding]:
    """Entries listing a work an earlier entry already lists (same title and year)."""
    entries = [Entry.of(ref) for ref in paper.references]
    out = []
    for i, later in enumerate(entries):
        for earlier in entries[:i]:
            if _same_work(earlier, later):
                out.append(finding(
                    "duplicate_entry", "medium", "citations",
                    f"bibliography entry {later.ref.index} repeats entry {earlier.ref.index}",
                    _entry_spot(paper, later.ref), text=later.ref.raw,
                    fix="keep one entry and point every citation at it"))
                break
    return out


def _same_work(a: Entry, b: Entry) -> bool:
    if a.ref.raw == b.ref.raw:
        return True
    if a.year != b.year or min(len(a.title), len(b.title)) < MIN_TITLE:
        return False
    return fuzz.ratio(a.title, b.title) >= DUPLICATE_TITLE_SCORE


def incomplete_entries(paper: Paper) -> list[CheckFinding]:
    """Entries with no year (the venue is not reliably parsed from printed entries): only
    entries with authors and a title, followed by one that starts cleanly (a year on the
    next printed line that the splitter cut off is no missing year)."""
    refs = paper.references
    out = []
    for i, ref in enumerate(refs):
        entry = Entry.of(ref)
        following = Entry.of(refs[i + 1]) if i + 1 < len(refs) else None
        if entry.year is None and len(entry.surnames) >= 1 and len(entry.title) >= 8 \
                and not re.search(r"\||-----|https?:", ref.raw) \
                and (following is None or well_formed(following)):
            out.append(finding("entry_missing_year", "low", "citations",
                               f"bibliography entry {ref.index} gives no year",
                               _entry_spot(paper, ref), text=ref.raw,
                               fix="add the year of publication"))
    return out


def _entry_spot(paper: Paper, ref: Reference) -> Spot | None:
    if ref.page is None or ref.line is None:
        return None
    return at_line(paper, ref.page, ref.line)
