"""Deterministic comparison of a bibliography entry with a found work.

Same work? An identifier match (DOI, arXiv id) decides; else the title (similarity of the
cited title, or the found title contained in the printed entry) plus author overlap plus the
year. Then each field the entry gives is compared: ``title``, ``authors`` (the first author's
family name), ``year`` and ``venue`` (only when they share nothing, not even an acronym).
"""

from __future__ import annotations

import re
import unicodedata
from difflib import SequenceMatcher

from papermind.domain.paper import Reference
from papermind.domain.scholar import FieldMismatch, FoundWork

SAME_TITLE = 0.93
"""Title similarity at which a title alone names the work."""
NEAR_TITLE = 0.85
"""Title similarity at which an author and the year must agree as well."""
TITLE_MISMATCH = 0.85
"""Below this, a work matched by identifier (or by authors and year) has another title."""
_VENUE_NOISE = {"proceedings", "proc", "conference", "international", "journal", "annual",
                "of", "the", "on", "in", "and", "for", "advances", "meeting", "workshop",
                "transactions", "acm", "ieee", "association", "symposium", "vol", "volume"}
_SENTENCE_END = re.compile(r"[.!?]\s+|[\"“”]")
_SUFFIXES = {"jr", "sr", "ii", "iii", "iv"}
_RETRACTED_PREFIX = re.compile(r"^(?:retracted(?: article)?\s*[:.-]\s*)", re.IGNORECASE)


def fold(text: str | None) -> str:
    """Lower case, accents and punctuation gone, whitespace folded."""
    text = unicodedata.normalize("NFKD", text or "")
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    return " ".join(re.sub(r"[^\w\s]", " ", text).replace("_", " ").split())


def title_score(ref: Reference, work: FoundWork) -> float:
    """How well the work's title fits the entry: 0..1."""
    found = fold(_RETRACTED_PREFIX.sub("", work.title))
    if not found:
        return 0.0
    cited = fold(ref.title)
    score = SequenceMatcher(None, cited, found).ratio() if cited else 0.0
    # the title parsed badly: the found title printed whole as one sentence of the entry
    if score < SAME_TITLE and len(found.split()) >= 3 and found in _sentences(ref.raw):
        return 1.0
    return score


def _sentences(raw: str) -> set[str]:
    """The entry cut at sentence ends and quotes, each part folded."""
    return {fold(part) for part in _SENTENCE_END.split(f"{raw} ") if part.strip()}


def family_tokens(name: str) -> set[str]:
    """Words of a printed name that can be a family name (no initials)."""
    return {w for w in fold(name).split() if len(w) > 1}


def family_name(display: str) -> str:
    """'Ada M. Lovelace' -> 'lovelace'; 'Lovelace, Ada' -> 'lovelace'."""
    if "," in display:
        return fold(display.split(",", 1)[0])
    words = [w for w in fold(display).split() if w not in _SUFFIXES]
    return words[-1] if words else ""


def first_author_agrees(ref: Reference, work: FoundWork) -> bool | None:
    """Whether the cited first author is the work's (None when either lists none)."""
    cited = _first_author_words(ref, work)
    if not cited or not work.authors:
        return None
    family = family_name(work.authors[0])
    return bool(family) and any(part in cited for part in family.split())


def _first_author_words(ref: Reference, work: FoundWork) -> set[str]:
    """The words of the entry's first author: as parsed, else what precedes the title up
    to the first comma or 'and' (none when the title is not printed in the entry)."""
    if ref.authors:
        return family_tokens(ref.authors[0])
    at = ref.raw.lower().find(work.title.lower()[:30]) if work.title else -1
    if at <= 0:
        return set()
    head = re.sub(r"^\s*(\[\w+\]|\d+\.)\s*", "", ref.raw[:at])
    first = re.split(r",|;|\band\b|&", head, maxsplit=1)[0]
    return family_tokens(first)


def authors_overlap(ref: Reference, work: FoundWork) -> bool:
    """Any of the work's authors' family names printed among the entry's authors (or text)."""
    cited = set().union(*(family_tokens(a) for a in ref.authors)) if ref.authors \
        else set(fold(ref.raw).split())
    return any(part in cited for a in work.authors[:20]
               for part in family_name(a).split() if len(part) > 1)


def same_work(ref: Reference, work: FoundWork) -> bool:
    """Whether a search result is the cited work (identifiers first, then title+authors+year)."""
    if identifier_match(ref, work):
        return not names_another_work(ref, work)
    score = title_score(ref, work)
    year_close = ref.year is not None and work.year is not None and abs(ref.year - work.year) <= 1
    return score >= SAME_TITLE or (score >= NEAR_TITLE and authors_overlap(ref, work)
                                   and year_close)


def identifier_match(ref: Reference, work: FoundWork) -> bool:
    return bool((ref.doi and work.doi and ref.doi.lower() == work.doi)
                or (ref.arxiv and work.arxiv and ref.arxiv.lower() == work.arxiv))


OTHER_TITLE = 0.6
"""Below this title similarity, an identifier whose first author does not agree either
names another work (an invented entry borrowing a real DOI), not the one cited."""


def names_another_work(ref: Reference, work: FoundWork) -> bool:
    """The entry's DOI or arXiv id belongs to a work with another title and first author."""
    return bool(identifier_match(ref, work) and ref.title
                and title_score(ref, work) < OTHER_TITLE
                and first_author_agrees(ref, work) is not True)


def mismatches(ref: Reference, work: FoundWork) -> list[FieldMismatch]:
    """Each field the entry gives that the work has otherwise."""
    out: list[FieldMismatch] = []
    if ref.title and work.title and title_score(ref, work) < TITLE_MISMATCH:
        out.append(FieldMismatch(field="title", cited=ref.title, found=work.title))
    if first_author_agrees(ref, work) is False:
        out.append(FieldMismatch(field="authors", cited=_names(ref.authors),
                                 found=_names(work.authors)))
    if ref.year is not None and work.year is not None and ref.year != work.year \
            and not _published_later(ref, work):
        out.append(FieldMismatch(field="year", cited=str(ref.year), found=str(work.year)))
    if ref.venue and work.venue and not venues_agree(ref.venue, work.venue) \
            and not (work.is_preprint or is_preprint_citation(ref)):
        out.append(FieldMismatch(field="venue", cited=ref.venue, found=work.venue))
    return out


def _published_later(ref: Reference, work: FoundWork) -> bool:
    """One work, two versions a year or two apart: a preprint cited by its posting year and
    matched to the version published since, or a published work the sources know only as
    its earlier preprint."""
    if not (ref.year and work.year):
        return False
    if is_preprint_citation(ref) and not work.is_preprint:
        return 0 < work.year - ref.year <= 2
    return work.is_preprint and not is_preprint_citation(ref) and 0 < ref.year - work.year <= 2


FIELD_WEIGHT = {"title": 2, "authors": 2, "year": 2, "venue": 1}
"""How much a mismatch counts when several versions of a work compete (venues are printed
in the most ways, so a venue mismatch counts least)."""


def mismatch_weight(ref: Reference, work: FoundWork) -> int:
    return sum(FIELD_WEIGHT[m.field] for m in mismatches(ref, work))


def version_distance(ref: Reference, work: FoundWork) -> int:
    """0 when the work is the version cited (preprint or published, and the year), else
    1 or 2: breaks ties between versions that both fit."""
    return int(work.is_preprint != is_preprint_citation(ref)) + int(
        ref.year is not None and work.year != ref.year)


def venues_agree(cited: str, found: str) -> bool:
    """Share a significant word, or one is the other's acronym ('NeurIPS' ~ 'Neural
    Information Processing Systems'). Lenient on purpose: venues are printed many ways."""
    a = {w for w in fold(cited).split() if w not in _VENUE_NOISE and not w.isdigit()}
    b = {w for w in fold(found).split() if w not in _VENUE_NOISE and not w.isdigit()}
    if not a or not b or a & b:
        return True
    if any(len(x) >= 4 and len(y) >= 4 and (x.startswith(y) or y.startswith(x))
           for x in a for y in b):  # 'Comput.' ~ 'Computation'
        return True
    return _acronym_of(cited, found) or _acronym_of(found, cited)


def is_preprint_citation(ref: Reference) -> bool:
    """The entry cites a preprint (an arXiv id, 'arXiv', 'CoRR', 'preprint')."""
    text = fold(f"{ref.venue or ''} {ref.raw}")
    return bool(ref.arxiv) or any(w in text.split() for w in ("arxiv", "corr", "preprint",
                                                               "biorxiv", "medrxiv"))


def _acronym_of(short: str, long: str) -> bool:
    """A word of ``short`` with two or more capitals ('NAACL', 'NeurIPS', 'J. Mach. Learn.
    Res.' as a whole) whose capitals are initials of ``long``'s words, in order."""
    initials = "".join(w[0] for w in fold(long).split() if w not in {"of", "the", "on", "and"})
    candidates = [short, *re.findall(r"[A-Za-z]+", short)]
    for word in candidates:
        letters = [c.lower() for c in word if c.isupper()]
        if len(letters) >= 2 and (word is short and len(letters) <= 6 or word is not short):
            it = iter(initials)
            if all(ch in it for ch in letters):
                return True
    return False


def _names(names: list[str]) -> str:
    shown = ", ".join(names[:3])
    return f"{shown} et al." if len(names) > 3 else shown
