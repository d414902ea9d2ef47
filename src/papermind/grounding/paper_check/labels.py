"""Labels the text refers to: 'Table 7' in a paper with five tables, 'Figure 9', 'Eq. (12)',
'Section 8', 'Appendix F' that do not exist; tables and figures the text never mentions.

A numbered label counts as missing only past the paper's highest one of its kind
(numbering is consecutive: 'Table 2' in a paper whose Table 3 was parsed is a table the
parser missed, not a wrong reference), and a kind is checked only when the paper has one.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

from papermind.domain.check import CheckFinding
from papermind.domain.paper import Paper
from papermind.grounding.paper_check.spots import Spot, at_line, finding

_LIST = r"(?:\s*(?:,|and|&|or|-|–|to)\s*\(?\d+\)?)*"
_MENTIONS = {
    "table": re.compile(rf"\b(?:Tables?|Tab\.|Tabs\.)\s*(\d+){_LIST}(?![\w.]*\d)"),
    "figure": re.compile(rf"\b(?:Figures?|Figs?\.)\s*(\d+){_LIST}(?![\w.]*\d)"),
    "section": re.compile(r"\b(?:Sections?|Sec\.|Secs\.|§)\s*(\d+)(?:\.\d+)*\b"),
    "appendix": re.compile(r"\bAppendi(?:x|ces)\s+([A-Z])(?:\.\d+)*\b"),
}
_CAPTION_START = re.compile(r"^\s*(?:\*\*)?(?:Table|Figure|Fig\.)\s*[A-Z]?\d+\s*[:.|]")
_CAPTION_ANYWHERE = re.compile(r"\b(Table|Figure|Fig\.)\s*(\d+)\s*:\s*[A-Z(]")
"""A caption the parser did not take as one (extracted text often runs it into a line)."""
_NUMBER = re.compile(r"\d+")
_EQUATION_NUMBER = re.compile(r"(?:^|\s{2,}|[=,.;])\s*\((\d{1,3})\)\s*$")
"""An equation number printed at a line's end, '(4)', that the equation parser missed."""
_OF_OTHER_WORK = r"\s+(?:of|in|from)\s+(?:\[\d|[A-Z][\w-]+(?:\s+et\s+al\.?|\s+and\s+[A-Z][\w-]+)?\s*[(\[,])"
_APPENDIX_HEADING = re.compile(r"^\s*(?:#+\s*)?(?:Appendix\s+)?([A-Z])(?:\.\d+)*\.?\s+[A-Z]{2,}\b")
"""'J CIFAR-10 ON VGG', '# B PROOFS': an appendix heading the outline did not number."""
_OTHER_WORK = re.compile(r"(?:19|20)\d\d[a-z]?\s*[,;]\s*(?:see\s+)?$|\b(?:of|in)\s+\[\d+\]\s*,?\s*$")
EQUATION_MARGIN = 2
"""Equation numbers are parsed from display lines, which text extraction often loses: an
'Eq. N' counts as missing only past the highest parsed number by more than this."""
MISSED_IF_MENTIONED = 2
"""A label past the highest parsed one that the text mentions on this many lines is taken
for one the parser missed (a table split off as an image, a caption run into a line), not
for a wrong reference: a stray wrong number is written once."""


def label_findings(paper: Paper) -> list[CheckFinding]:
    """Mentions of labels the paper lacks, and tables/figures never mentioned."""
    known = known_labels(paper)
    misses: dict[tuple[str, str], list[tuple[str, Spot]]] = {}
    for ln in paper.lines():
        if _CAPTION_START.match(ln.text):
            continue
        for kind, pattern in _MENTIONS.items():
            for match in pattern.finditer(ln.text):
                if _OTHER_WORK.search(ln.text[max(0, match.start() - 40):match.start()]):
                    continue  # 'Pavliotis, 2014, Section 3.7': a part of a cited work
                labels = [match.group(1)] if kind == "appendix" else _NUMBER.findall(match.group(0))
                missing = [x for x in labels if beyond(x, known[kind])]
                if known[kind] and missing:
                    misses.setdefault((kind, missing[0]), []).append(
                        (match.group(0), at_line(paper, ln.page, ln.n)))
    equations = {e.label for e in paper.equations if e.label}
    equations |= {m.group(1) for ln in paper.lines() if (m := _EQUATION_NUMBER.search(ln.text))}
    for r in paper.equation_refs:
        text = at_line(paper, r.page, r.line).text
        if re.search(re.escape(r.marker) + _OF_OTHER_WORK, text):
            continue  # 'Eq. 19 in Yu et al. (2018)': another paper's equation
        if r.equation_id is None and equations and beyond(r.label, equations, EQUATION_MARGIN):
            misses.setdefault(("equation", r.label), []).append(
                (r.marker, at_line(paper, r.page, r.line)))
    out = [_missing(kind, label, *mentions[0]) for (kind, label), mentions in misses.items()
           if len({(spot.page, spot.line) for _, spot in mentions}) < MISSED_IF_MENTIONED]
    return out + unreferenced(paper)


def _missing(kind: str, label: str, marker: str, spot: Spot) -> CheckFinding:
    return finding("reference_to_missing_label", "high", "presentation",
                   f"'{marker}' refers to {kind} {label}, which the paper does not have", spot,
                   fix=f"point it at an existing {kind} or add {kind} {label}")


def known_labels(paper: Paper) -> dict[str, set[str]]:
    """kind -> labels the paper has (tables, figures, top-level sections, appendix letters)."""
    tables = {t.number for t in paper.tables if t.number}
    tables |= {c.label for c in paper.captions if c.kind == "table" and c.label}
    figures = {c.label for c in paper.captions if c.kind == "figure" and c.label}
    for ln in paper.lines():
        for caption in _CAPTION_ANYWHERE.finditer(ln.text):
            (tables if caption.group(1) == "Table" else figures).add(caption.group(2))
    numbers = [s.number for s in paper.sections if s.number]
    sections = {n.split(".")[0] for n in numbers if n.split(".")[0].isdigit()}
    appendices = {n.split(".")[0] for n in numbers if re.fullmatch(r"[A-Z]", n.split(".")[0])}
    appendices |= {m.group(1) for s in paper.sections
                   if (m := re.match(r"Appendix\s+([A-Z])\b", s.title))}
    appendices |= {m.group(1) for ln in paper.lines() if (m := _APPENDIX_HEADING.match(ln.text))}
    return {"table": tables, "figure": figures, "section": sections, "appendix": appendices}


def beyond(label: str, known: Collection[str | None], margin: int = 0) -> bool:
    """Whether ``label`` is past the highest known label of its kind (numbers or letters),
    by more than ``margin`` for numbers."""
    if label in known:
        return False
    if label.isdigit():
        numbers = [int(k) for k in known if k and k.isdigit()]
        return bool(numbers) and max(numbers) + margin < int(label) <= max(numbers) + 50
    letters = [k for k in known if k and len(k) == 1 and k.isalpha()]
    return bool(letters) and len(label) == 1 and label > max(letters)


def unreferenced(paper: Paper) -> list[CheckFinding]:
    """Tables and figures of the main text (before the bibliography: an appendix's floats
    are often only pointed at as a whole) whose number no line outside a caption mentions,
    in any case ('figure 2' counts)."""
    mentioned: dict[str, set[str]] = {"table": set(), "figure": set()}
    for text in _body_texts(paper):
        for kind in mentioned:
            for match in re.finditer(_MENTIONS[kind].pattern, text, re.IGNORECASE):
                mentioned[kind].update(_expand(_NUMBER.findall(match.group(0)), match.group(0)))
    end = min(((r.page, r.line) for r in paper.references if r.page and r.line),
              default=(len(paper.pages) + 1, 0))
    out = []
    for caption in paper.captions:
        first = caption.first
        if caption.label and caption.label.isdigit() and caption.label not in mentioned[caption.kind] \
                and first is not None and (first.page, first.line) < end:
            out.append(finding(
                f"{caption.kind}_never_referenced", "low", "presentation",
                f"{caption.kind.capitalize()} {caption.label} is never referred to in the text",
                at_line(paper, first.page, first.line),
                fix=f"refer to {caption.kind.capitalize()} {caption.label} where it is discussed"))
    return out


def _body_texts(paper: Paper) -> Iterable[str]:
    """The paper's lines outside captions, each joined with the next (a mention may break)."""
    lines = [ln.text for ln in paper.lines()]
    for i, text in enumerate(lines):
        following = lines[i + 1] if i + 1 < len(lines) else ""
        if not _CAPTION_START.match(text):
            yield text + " " + ("" if _CAPTION_START.match(following) else following)


def _expand(numbers: list[str], text: str) -> set[str]:
    """'Figures 2-4' -> {2, 3, 4}."""
    found = set(numbers)
    for a, b in re.findall(r"(\d+)\s*(?:-|–|to)\s*(\d+)", text):
        if 0 < int(b) - int(a) <= 20:
            found |= {str(k) for k in range(int(a), int(b) + 1)}
    return found
