"""One reference entry parsed into fields (ref_split cuts the list into entries)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from papermind.ingest.ref_authors import scan_authors

BULLET = re.compile(r"^\s*[-*+\u2022\u25aa\u25cf]\s+(?=\S)")
"""A list item's mark ('- ', '* ', '\u2022 '): Markdown converted from PDF lists entries so."""
BRACKET = re.compile(r"^\s*(?:[-*+\u2022\u25aa\u25cf]\s+)?\[(\d{1,3})\]\s*")
DOTTED = re.compile(r"^\s*(?:[-*+\u2022\u25aa\u25cf]\s+)?(\d{1,3})\.\s+(?=\S)")
_DOI = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>]+)", re.IGNORECASE)
_ARXIV = re.compile(
    r"(?:arxiv(?:\s*preprint)?\s*(?:abs/|:)?\s*|arxiv\.org/(?:abs|pdf)/)"
    r"(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})(v\d+)?",
    re.IGNORECASE,
)
YEAR = re.compile(r"(?<![\d/.])(?<!\d-)(19[4-9]\d|20[0-3]\d)(?:[a-z])?(?![\d/]|\.\d)")
"""A year: not a piece of a number ('ISSN 0952-1976', '2020.103831', '10.1/2019')."""
_LINKS = re.compile(r"https?://\S+|\b10\.\d{4,9}/\S+")
"""URLs and DOIs: their digits are no year ('icom-2020-0025', 'TPAMI.2016.2572683')."""
_PAREN_YEAR = re.compile(r"\((?:19|20)\d\d[a-z]?\)")
_END_YEAR = re.compile(r"[.\s]*$")  # the year that ends the entry ('..., arXiv:1902.03368, 2019.')
_QUOTED = re.compile(r"[“\"](.{6,}?)[”\"]")
_INITIALS = re.compile(r"(?:[A-Z][a-z]?\.?\s?-?){1,4}")
_INITIAL = re.compile(r"^(?:[A-Z][a-z]?|[A-Z]\.-?[A-Z]|al|Jr|Sr|St)$")


@dataclass(slots=True)
class ParsedReference:
    """Fields of one entry; ``authors`` as printed."""

    label: str | None = None
    raw: str = ""
    authors: list[str] = field(default_factory=list)
    title: str | None = None
    year: int | None = None
    year_suffix: str = ""
    venue: str | None = None
    doi: str | None = None
    arxiv: str | None = None


def _author_end(text: str) -> int:
    """Offset where the author list ends (the first sentence end not after an initial)."""
    for match in re.finditer(r"\.(?=\s+\S)|[.:](?=$)", text):
        if re.match(r"\s*(?:19|20)\d\d[a-z]?\.", text[match.end():]):
            return match.start()  # ACL style: 'Authors. 2017. Title.'
        before = text[: match.start()].rsplit(None, 1)
        word = before[-1].strip(",") if before else ""
        if word and not _INITIAL.match(word.split("-")[-1].split(".")[-1] or word):
            return match.start()
    return -1


def split_names(segment: str) -> list[str]:
    """Author names from an author segment ('A. Smith, B. Jones and C. Lee' or 'Smith, J., ...')."""
    segment = re.sub(r"\bet al\.?", "", segment).strip(" ,;")
    if segment.endswith(".") and len(segment.rsplit(None, 1)[-1]) > 3:
        segment = segment[:-1]
    segment = re.sub(r",?\s*(?:and|&)\s+", ", ", segment)
    parts = [p.strip() for p in re.split(r"[;,]", segment) if p.strip()]
    names: list[str] = []
    i = 0
    while i < len(parts):
        part = parts[i]
        nxt = parts[i + 1] if i + 1 < len(parts) else ""
        if nxt and "." not in part and len(part.split()) <= 3 and _INITIALS.fullmatch(nxt):
            names.append(f"{part}, {nxt}")
            i += 2
            continue
        names.append(part)
        i += 1
    return [n for n in names if any(ch.isalpha() for ch in n) and len(n) < 60]


def without_bullet(raw: str) -> str:
    """An entry's text without the list item's mark ('- [3] Smith ...' -> '[3] Smith ...')."""
    return BULLET.sub("", raw, count=1)


def parse_entry(raw: str) -> ParsedReference:
    """Fields of one reference string."""
    raw = without_bullet(raw)
    ref = ParsedReference(raw=raw)
    text = raw
    label = BRACKET.match(text) or DOTTED.match(text)
    if label:
        ref.label, text = label.group(1), text[label.end():]
    if doi := _DOI.search(text):
        ref.doi = doi.group(1).rstrip(".,;)")
    if arxiv := _ARXIV.search(text):
        ref.arxiv = arxiv.group(1)
    ids = [m.span() for m in (_ARXIV.search(text), *_LINKS.finditer(text)) if m]
    years = [m for m in YEAR.finditer(text)  # not the '2006' of 'arXiv:2006.13900'
             if not any(a <= m.start() < b for a, b in ids)]
    if years:
        pick = next((m for m in years if _PAREN_YEAR.search(text[max(0, m.start() - 1): m.end() + 2])),
                    None) or _acl_year(text, years[0]) \
            or next((m for m in years if _END_YEAR.match(text, m.end())), None) \
            or (years[-1] if ref.arxiv is None else years[0])
        ref.year, ref.year_suffix = int(pick.group(1)), pick.group(0)[4:]
    _split_fields(text, ref)
    return ref


def _acl_year(text: str, first: re.Match[str]) -> re.Match[str] | None:
    """The first year when it stands as a sentence of its own after the author list ('...
    Adam Janin. 2011. The IBM 2009 GALE system'): the ACL style's year of publication."""
    before, after = text[: first.start()].rstrip(), text[first.end():]
    return first if before.endswith(".") and re.match(r"\.\s", after) else None


_VENUE_CUE = re.compile(
    r",\s*(?=(?:in\b|In\b|Proc|J\.|Journal|IEEE|ACM|Technical|Tech\.|Ph\.\s?D|PhD|Masters?|MIT\b|"
    r"Springer|Addison|Lecture|Preprint|preprint|pp\.|vol|Vol|Comm|Department|Dept|Univ|paper|"
    r"Transactions|Trans\.|Workshop|Conference|Symposium|Int|Report|Information|Artificial|"
    r"Machine|Morgan|Academic|Prentice|Elsevier|Kluwer|Wiley|Cambridge|Oxford|North|[A-Z][a-z]+ Press|"
    r"\d|Ann\.|SIAM|Math|Computer|Computing|Science|Software|Data|Neural|Theor|Commun|Amer))")


def _scanned_fields(text: str, ref: ParsedReference) -> bool:
    """Fields when the author list reads name by name; False when it does not."""
    scan = scan_authors(text)
    if not scan.names or scan.end == 0:
        return False
    tail = re.sub(r"^\s*\(?(?:19|20)\d\d[a-z]?\)?[.,:]?\s*", "", text[scan.end:]).strip()
    quoted = _QUOTED.match(tail) or re.match(r"``(.{6,}?)''", tail)
    if quoted:
        title, rest = quoted.group(1), tail[quoted.end():]
    else:
        title, _, rest = _sentence(tail)
        if (cue := _VENUE_CUE.search(title)) is not None:  # 'Title, Comm. of the ACM, 37(7)'
            title, rest = title[:cue.start()], title[cue.end():] + rest
    ref.authors = [] if scan.editors else scan.names
    ref.title = title.strip(" ,.;`'") or None
    venue = re.sub(r"^(in|In)[:\s]+", "", rest.strip(" ,.;"))
    ref.venue = YEAR.sub("", venue).strip(" ,.;()")[:200] or None
    return True


def _split_fields(text: str, ref: ParsedReference) -> None:
    if _scanned_fields(text, ref):
        return
    quoted = _QUOTED.search(text)
    paren = _PAREN_YEAR.search(text)
    if quoted:
        authors, title, rest = text[: quoted.start()], quoted.group(1), text[quoted.end():]
    elif paren and paren.start() < len(text) // 2:
        authors, tail = text[: paren.start()], text[paren.end():].lstrip(" .,:")
        title, _, rest = _sentence(tail)
    else:
        end = _author_end(text)
        if end < 0:
            ref.title = text.strip() or None
            return
        authors, tail = text[:end], text[end + 1:].strip()
        if re.match(r"^(19|20)\d\d[a-z]?\.", tail):
            tail = tail.split(".", 1)[1].strip()
        title, _, rest = _sentence(tail)
    ref.authors = split_names(authors)
    ref.title = title.strip(" ,.;") or None
    venue = re.sub(r"^(in|In)[:\s]+", "", rest.strip(" ,.;"))
    venue = YEAR.sub("", venue).strip(" ,.;()")
    ref.venue = venue[:200] or None


def _sentence(text: str) -> tuple[str, str, str]:
    """Split at the first sentence end ('. ', '? ' or '! ') not inside a short abbreviation."""
    for match in re.finditer(r"[.?!](?=\s+[A-Za-z(\[0-9\"“]|\s*$)", text):
        word = text[: match.start()].rsplit(None, 1)[-1] if text[: match.start()].strip() else ""
        if len(word) > 2 or not word.isalpha() or word.islower():
            stop = match.start() + (1 if text[match.start()] in "?!" else 0)
            return text[:stop], text[match.start()], text[match.end():]
    return text, "", ""


def surname(name: str) -> str:
    """Family name of an author as printed ('Smith, J.' or 'John Smith' -> 'smith')."""
    name = name.strip()
    family = name.split(",")[0] if "," in name else (name.split()[-1] if name.split() else "")
    family = unicodedata.normalize("NFKD", family)
    return "".join(ch for ch in family if ch.isalpha()).lower()
