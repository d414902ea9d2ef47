"""The reference list cut into entries: numbered ('[1]', '1.'), Markdown list items
('- [1] ...', '- Name, ...', '* ...'), hanging indents of PDFs, blank-line blocks, and in
text without layout one entry per line where each line opens with an author list."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from papermind.ingest.layout import FlowLine
from papermind.ingest.ref_authors import scan_authors
from papermind.ingest.references import BRACKET, BULLET, DOTTED, YEAR

_HEADINGS = {"references", "bibliography", "literature cited", "works cited", "cited literature",
             "references and notes", "参考文献"}
"""A reference list's headings (sections.py finds them when they are set as headings)."""


def bare_heading(lines: Sequence[FlowLine]) -> int | None:
    """Index of a reference-list heading that layout did not mark as a heading (set in body
    type): a line that is only the word, past the paper's first third, followed by lines
    that give years (four of the next twelve)."""
    for i in range(len(lines) // 3, len(lines)):
        word = lines[i].text.strip(" *_#:.").lower()
        if word not in _HEADINGS:
            continue
        after = [ln.text for ln in lines[i + 1:i + 13]]
        if sum(YEAR.search(text) is not None for text in after) >= 4:
            return i
    return None


_MD_HEADING = re.compile(r"^\s*#{1,6}\s+\S")


def list_end(lines: Sequence[FlowLine], start: int, end: int, gap: int = 12) -> int:
    """Where a reference list stops before ``end``: after the last line with a year that is
    followed by ``gap`` lines of text without one (a table or an appendix after the list)."""
    last, quiet = start, 0
    for i in range(start, end):
        if YEAR.search(lines[i].text):
            last, quiet = i + 1, 0
        elif lines[i].text.strip():
            quiet += 1
            if quiet >= gap:
                return last
    return end


def without_running_heads(flat: Sequence[FlowLine], indices: Sequence[int]) -> list[FlowLine]:
    """The lines at ``indices`` without page numbers and running heads that text without
    layout keeps ('Published as a conference paper at ICLR 2022', '13'): a line whose text
    but for leading and trailing digits comes twice or more outside the list too."""
    def key(line: FlowLine) -> str:
        return line.text.strip(" 0123456789")
    inside = set(indices)
    counts = Counter(key(ln) for i, ln in enumerate(flat) if i not in inside)
    return [flat[i] for i in indices if flat[i].box is not None or not (
        flat[i].text.strip().isdigit() or (re.search(r"[^\W\d_]", key(flat[i])) is not None
                                           and counts[key(flat[i])] >= 2))]


def split_entries(lines: Sequence[FlowLine]) -> list[list[FlowLine]]:
    """Group the lines of a reference section into entries."""
    lines = [ln for ln in lines if any(ch.isalnum() for ch in ln.text)]  # no '-----' rules
    end = next((i for i, ln in enumerate(lines) if ln.box is None and _MD_HEADING.match(ln.text)), None)
    lines = lines[:end]  # '## Supplementary material' in extracted text: the list ended
    if not lines:
        return []
    for pattern in (BRACKET, DOTTED):
        starts, first = _label_starts(lines, pattern)
        if len(starts) >= 2 and (len(starts) >= len(lines) // 6 or (first == 1 and len(starts) >= 5)):
            return _trim_last(_cut(lines, starts))
    starts = [i for i, ln in enumerate(lines) if BULLET.match(ln.text)]
    if len(starts) >= 2 and len(starts) >= len(lines) // 6:  # an item that lost its mark
        return [part for entry in _cut(lines, starts) for part in _cut(entry, _line_starts(entry))]
    hanging = _hanging_starts(lines)
    if hanging:
        return _cut(lines, hanging)
    blocks = [i for i, ln in enumerate(lines) if ln.starts_block]
    entries = _cut(lines, [i for k, i in enumerate(blocks)
                           if not _continues(lines[blocks[k - 1] if k else 0:i], lines[i].text)])
    if not any(ln.box for ln in lines):
        entries = [part for entry in entries for part in _cut(entry, _line_starts(entry))]
    return [entry for entry in entries if not _debris(entry)]


def _debris(entry: Sequence[FlowLine]) -> bool:
    """A short piece with no year in an unnumbered list: a heading or a page's running head
    caught in the list ('# Appendices'), not an entry."""
    text = " ".join(ln.text for ln in entry).strip()
    return len(text) < 25 and YEAR.search(text) is None


def _label_starts(lines: Sequence[FlowLine], pattern: re.Pattern[str]) -> tuple[list[int], int]:
    """Lines opening entries n, n+1, n+2... (up to two labels may be lost in extraction) and
    the first label; a number out of sequence ('480. https://doi.org/...' where a page number
    wrapped) opens no entry."""
    starts: list[int] = []
    first = expected = 0
    for i, line in enumerate(lines):
        if (match := pattern.match(line.text)) is None:
            continue
        label = int(match.group(1))
        if not starts:
            first = label
        elif not expected <= label <= expected + 2:
            continue
        starts.append(i)
        expected = label + 1
    return starts, first


def _trim_last(entries: list[list[FlowLine]]) -> list[list[FlowLine]]:
    """The last numbered entry without what follows the list (an appendix whose heading was
    not found): at most three times the usual entry's lines, and six at least."""
    if len(entries) < 3:
        return entries
    sizes = sorted(len(e) for e in entries[:-1])
    keep = max(6, 3 * sizes[len(sizes) // 2])
    return [*entries[:-1], entries[-1][:keep]]


def _line_starts(entry: Sequence[FlowLine]) -> list[int]:
    """Lines of a block of text without layout that open a new entry: the text so far ends
    an entry (a year, then '.' or ')') and the line opens with an author list."""
    starts: list[int] = []
    so_far = entry[0].text.strip() if entry else ""
    for i in range(1, len(entry)):
        text = entry[i].text.strip()
        if _ends_entry(so_far) and _opens_entry(text):
            starts.append(i)
            so_far = text
        else:
            so_far = f"{so_far} {text}"
    return starts


def _ends_entry(text: str) -> bool:
    return text.endswith((".", ")", "]")) and YEAR.search(text) is not None


def _opens_entry(text: str) -> bool:
    """Two names, or one in 'Smith, J.' / 'J. Smith' form, or one closed by a full stop
    ('Charles Elkan. The foundations ...'), or one with its year on the line ('Neural
    Computation, 9(8)' after a title is no author)."""
    scan = scan_authors(text)
    if not scan.names or scan.editors:
        return False
    initials = re.search(r"(?:^|[\s,])[A-Z]\.", scan.names[0]) is not None
    alone = re.match(r"\.\s+[A-Z]", text[len(scan.names[0]):]) is not None
    return len(scan.names) >= 2 or initials or alone or YEAR.search(text[:scan.end + 8]) is not None


_NAME_START = re.compile(r"^(?:(?:[A-Z]\.\s*)+[A-Z][\w'\-]+|[A-Z][\w'\-]+(?:\s+[A-Z][\w'.\-]*){0,3}"
                         r"\s*(?:,|\band\b|&)|[A-Z][\w'\-]+,\s+[A-Z]\.)")
_PARTICLE_START = re.compile(r"^(?:van|von|de|der|den|da|di|du|dos|del|della|le|la|ten|ter)\b")


def _continues(before: Sequence[FlowLine], text: str) -> bool:
    """Whether a block after a blank line goes on with the entry before it (text extracted
    from PDFs puts blank lines inside entries): it starts in lower case ('off-policy
    evaluation. arXiv ...', not 'van der Maaten'), or the entry so far has no year and
    stops mid-sentence ('... and Joan Bruna. Offline rl without') or the block does not
    open with a name ('Conf. Comput. Vis., 2018.' after '... tracking. In Eur.')."""
    if not before:
        return False
    start = text.lstrip()
    if start[:1].islower() and not _PARTICLE_START.match(start):
        return True
    so_far = " ".join(ln.text for ln in before).rstrip(" _*")  # '_..., 201._' (italics)
    if YEAR.search(so_far):
        return False
    return not so_far.endswith((".", ")", "]")) or not (_NAME_START.match(start)
                                                         or _opens_entry(start))


def _cut(lines: Sequence[FlowLine], starts: list[int]) -> list[list[FlowLine]]:
    starts = sorted(set(starts) | {0})
    bounds = [*starts, len(lines)]
    return [list(lines[a:b]) for a, b in zip(bounds, bounds[1:], strict=False) if b > a]


def _hanging_starts(lines: Sequence[FlowLine]) -> list[int]:
    """Entry starts in a hanging-indent list: lines flush left while the rest are indented."""
    boxed = [ln for ln in lines if ln.box]
    if len(boxed) < 3:
        return []
    lefts: dict[tuple[int, int], float] = {}
    for ln in boxed:
        key = (ln.page, ln.column)
        lefts[key] = min(lefts.get(key, 1e9), ln.box[0])  # type: ignore[index]
    indented = [ln for ln in boxed if ln.box[0] > lefts[(ln.page, ln.column)] + 4]  # type: ignore[index]
    if not 0.2 * len(boxed) <= len(indented) <= 0.85 * len(boxed):
        return []
    return [i for i, ln in enumerate(lines)
            if ln.box and ln.box[0] <= lefts[(ln.page, ln.column)] + 1.5]
