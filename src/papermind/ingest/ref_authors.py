"""The author list at the start of a reference string, read name by name.

Each name is one of 'Surname, I. J.', 'I. J. Surname' or 'First Last'; names are joined by
',', 'and' or '&'. Reading stops at the first piece that is no name, which is where the
title starts ("Ancona, D., and Zucca, E. An algebraic approach..." -> two names).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_UP = r"[A-Z\u00C0-\u00DE]"
_LOW = r"[a-z\u00DF-\u00FF'’]"
_SURNAME = (rf"(?:(?:van der|van|von|de la|de|der|di|da|le|la|du|del|dos|ten|ter|Mc|O')\s?)?"
            rf"{_UP}{_LOW}+(?:{_UP}{_LOW}+)?(?:[-’']{_UP}?{_LOW}+)*")
_INITIAL = rf"(?:{_UP}\.?-{_UP}\.|{_UP}\.)"
_INITS = rf"(?:{_INITIAL}(?:\s?{_INITIAL})*)"
_GIVEN = rf"{_UP}{_LOW}+(?:-{_UP}?{_LOW}+)?"
_NAME = re.compile(
    rf"(?P<inverted>{_SURNAME}(?:\s{_SURNAME})?,\s?{_INITS}(?:\s?Jr\.?)?)"
    rf"|(?P<initials>{_INITS}\s?{_SURNAME}(?:\s{_SURNAME})?(?:,?\s?Jr\.)?)"
    rf"|(?P<full>{_GIVEN}(?:\s(?:{_UP}\.?|{_GIVEN}))?\s{_SURNAME}(?:\s{_SURNAME})?(?:,?\s?Jr\.)?)"
    rf"|(?P<inverted_full>{_SURNAME},\s{_GIVEN}(?:\s{_GIVEN}|\s{_UP}\.)?)"
)
_FULL = re.compile(rf"{_GIVEN}(?:\s(?:{_UP}\.?|{_GIVEN}))?\s{_SURNAME}")
"""'Robert A. Jacobs', 'Robert A Jacobs' (a middle initial without its point, as Google
Scholar's BibTeX prints it) or 'Robert Jacobs'."""
_NEXT_SURNAME = re.compile(rf"\s{_SURNAME}\s*[,;.]")
_SEPARATOR = re.compile(r"\s*(?:[,;]\s*(?:and\s+|&\s*)?|\s(?:and|And)\s|\s?&\s?)")
_NAME_END = re.compile(r"\s*(?:[,;.]|\(|\s(?:and|And)\s|&|$)")
_EDITORS = re.compile(r"\s*(?:\((?:eds?|editors?)\.?\)|,?\s*(?:eds?\.|editors?))", re.IGNORECASE)
_FUNCTION = {"a", "an", "the", "of", "and", "for", "in", "on", "to", "with", "via", "from", "by"}


@dataclass(slots=True)
class AuthorScan:
    """Names read from the start and the offset where the author list ends."""

    names: list[str] = field(default_factory=list)
    end: int = 0
    comma_style: bool = False  # 'Surname, I., Title, Venue' entries: fields parted by commas
    editors: bool = False  # the names are editors ('..., editors.'), not authors


def _name_at(text: str, pos: int, first: str | None, last: bool = False
             ) -> tuple[re.Match[str], str] | None:
    """A name at ``pos`` and its style; spelled-out names only in lists that began with one
    (``first`` is the style of the list's first name) or after a final 'and'."""
    match = _NAME.match(text, pos)
    if match is None:
        return None
    style = match.lastgroup or ""
    if style == "inverted" and _NEXT_SURNAME.match(text, match.end()) and (full := _FULL.match(text, pos)):
        match, style = full, "full"  # 'Shaojie Bai, V. Koltun': the initial starts the next name
    if not match.group().endswith(".") and not _NAME_END.match(text, match.end()):
        return None  # a title's first words ('Transfinite Recursive Progressions of ...')
    if style in ("full", "inverted_full"):
        words = match.group().replace(",", " ").split()
        if any(w.lower() in _FUNCTION for w in words if not re.fullmatch(r"[A-Z]\.?", w)):
            return None
        if first == "inverted" and not last:
            return None  # 'Surname, I.' lists do not switch to 'First Last' but for the last name
        if first == "initials" and len(words) > 2 and not re.search(r"\s[A-Z]\.\s", match.group()):
            return None  # 'J. E. Hu, Yelong Shen' yes; 'R. R. Henry, Integrating Register Allocation' no
    return match, style


def scan_authors(text: str) -> AuthorScan:
    """Read 'A, B and C' names from the start of ``text``."""
    scan = AuthorScan()
    pos, first = 0, None
    last = False
    while (found := _name_at(text, pos, first, last)) is not None:
        match, style = found
        scan.names.append(" ".join(match.group().split()))
        first = first or style
        pos = match.end()
        sep = _SEPARATOR.match(text, pos)
        if sep is None or _name_at(text, sep.end(), first, "and" in sep.group() or "&" in sep.group()) is None:
            break
        pos, last = sep.end(), "and" in sep.group() or "&" in sep.group()
    if not scan.names:
        return scan
    if editors := _EDITORS.match(text, pos):
        pos, scan.editors = editors.end(), True
    rest = text[pos:]
    tail = re.match(r"\s*(?:\(\s*(?:19|20)\d\d[a-z]?\s*\)|(?:[.,]\s*)?(?:19|20)\d\d[a-z]?(?=[.,]))?\s*([.,:])?", rest)
    scan.end = pos + (tail.end() if tail else 0)
    scan.comma_style = bool(tail and tail.group(1) == ",")
    return scan
