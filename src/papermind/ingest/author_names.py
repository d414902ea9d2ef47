"""Author lines: names parted from the affiliation markers printed after them.

'Kalpesh Krishna♠ ∗ Erin Bransom♢', 'Peng Xue 1 , 2 , 6 Wei Fang 3 ∗', 'Loα, Kyle': each
name is kept clean and its markers (symbols, digits, Greek letters) are kept apart as the
author's affiliation links, so they never reach a search hit, a heading or an export.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

MARK_SYMBOLS = "♠♢♡♣♤♥♦♧∗*†‡§¶#˚◦☯♯♮⋆★☆✉✝⊕⊗⋄♭♪"
"""Glyphs that journals and templates print after a name to point at an affiliation or note."""
_SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹ᵃᵇᶜᵈᵉ"
_MARK_CHARS = MARK_SYMBOLS + _SUPERSCRIPTS
_GLUED = re.compile(rf"^(?P<word>.*?[^\W\d_])(?P<marks>[\d{re.escape(_MARK_CHARS)},]+)$")
"""A word with markers glued on: 'Krishna♠', 'Wang1,2∗', 'Cohan†∗'."""
_SEPARATOR = re.compile(r"^(,|;|and|&|·)$", re.IGNORECASE)
_PARTICLES = frozenset({"van", "von", "der", "den", "de", "del", "della", "da", "di", "du",
                        "dos", "das", "la", "le", "bin", "ibn", "al", "ten", "ter", "zu"})
"""Lower-case name particles: 'Madeleine van Zuylen', 'Ludwig von Mises'."""


@dataclass(slots=True)
class AuthorName:
    """One author as printed: the clean name and the markers that followed it."""

    name: str
    marks: list[str] = field(default_factory=list)


def _greek(ch: str) -> bool:
    return "GREEK" in unicodedata.name(ch, "")


def _is_mark(token: str) -> bool:
    """A token made only of markers: '♠', '1', '2,3', '∗‡', 'α' (a lone Greek letter)."""
    core = token.strip(",")
    if not core:
        return False
    if len(core) == 1 and _greek(core):
        return True
    if any(len(run) > 2 for run in re.findall(r"\d+", core)):
        return False  # '98103', '352350': a postal code or box number, no marker
    return all(ch.isdigit() or ch in _MARK_CHARS or ch == "," for ch in core) and len(core) <= 8


def _split_glued(word: str) -> tuple[str, list[str]]:
    """'Krishna♠∗' -> ('Krishna', ['♠', '∗']); 'Loα' -> ('Lo', ['α']); 'Kyle' unchanged."""
    if len(word) > 2 and _greek(word[-1]) and not _greek(word[-2]) and word[-2].isalpha():
        return word[:-1], [word[-1]]
    match = _GLUED.match(word)
    if match is None:
        return word, []
    return match["word"], _marks(match["marks"])


def _marks(token: str) -> list[str]:
    """Each marker of a marker token: '1,2' -> ['1', '2']; '∗‡' -> ['∗', '‡']; '12' -> ['12']."""
    out: list[str] = []
    for part in token.split(","):
        out.extend(re.findall(r"\d+|.", part.strip()))
    return [m for m in out if m.strip()]


def _tokens(text: str) -> list[str]:
    text = re.sub(r"\(.*?\)", " ", text)
    text = re.sub(r"\s*,\s*", " , ", text)
    return text.replace(";", " ; ").split()


_SPACING_ACCENTS = {"´": "\u0301", "`": "\u0300", "¨": "\u0308", "˜": "\u0303", "ˆ": "\u0302",
                    "¸": "\u0327", "ˇ": "\u030c", "˚": "\u030a"}
_LOOSE_ACCENT = re.compile(rf"(?<=[^\W\d_])([{''.join(_SPACING_ACCENTS)}]) ?(?=[^\W\d_])")


def compose_accents(text: str) -> str:
    """'Andr´ es Guzm´ an' (a converter's spacing accents) -> 'Andrés Guzmán'."""
    def put(match: re.Match[str]) -> str:
        return "\0" + _SPACING_ACCENTS[match[1]]

    marked = _LOOSE_ACCENT.sub(put, text)
    return unicodedata.normalize("NFC", re.sub(r"\0(.)(.)", lambda m: m[2] + m[1], marked))


def starts_with_number_mark(text: str) -> bool:
    """'1 Michigan State University', '2Amazon': an affiliation listed under its number."""
    return re.match(r"^[\d¹²³⁴⁵⁶⁷⁸⁹]{1,2}(?:\s|[A-Z][a-z])", text.strip()) is not None


def split_marked_names(text: str) -> list[AuthorName]:
    """Name candidates of one author line, each with its markers (not yet judged as names).
    A name ends at a marker, a comma, 'and', '&' or a wide gap (``\\u2003``)."""
    out: list[AuthorName] = []
    current: list[str] = []
    marks: list[str] = []

    def close() -> None:
        if current:
            out.append(AuthorName(" ".join(current), list(dict.fromkeys(marks))))
        current.clear()
        marks.clear()

    previous = ""
    for token in _tokens(compose_accents(text).replace("\u2003", " ; ")):  # a wide gap parts names
        if _SEPARATOR.match(token):
            if token != "," or not marks:
                close()
            previous = token
            continue
        if _is_mark(token) and marks and token == previous:
            break  # 'Hao Zhang 1 1 UC San Diego 2 MBZUAI': the affiliations' list begins
        previous = token
        if _is_mark(token) or (marks and len(token) == 1 and token.isupper()):
            # a lone capital after markers is an icon read as a letter ('Li 1 B' = envelope)
            marks.extend(_marks(token) if _is_mark(token) else [])
            continue
        if marks:
            close()
        word, glued = _split_glued(token)
        current.append(word)
        if glued:
            marks.extend(glued)
    close()
    return out


def looks_like_name(name: str) -> bool:
    """Two to five capitalised words (particles allowed): 'Daniel S. Weld', 'Madeleine van
    Zuylen'; not 'Abstract', not a sentence."""
    words = name.split()
    if not 2 <= len(words) <= 5 or not words[-1][:1].isupper() or name.endswith(":"):
        return False

    return all(w[0].isupper() or w in _PARTICLES for w in words if w[0].isalpha()) and all(
        any(ch.isalpha() for ch in w) for w in words)


def _acronym(word: str) -> bool:
    return len(word) >= 2 and word.isupper() and word.isalpha()


def drop_trailing_acronym(name: str) -> str:
    """'Yoonho Lee KAIST' -> 'Yoonho Lee' (an institution's acronym after a mixed-case name);
    'Chris QUIRK' stays (a surname set in capitals)."""
    words = name.split()
    if len(words) >= 3 and _acronym(words[-1]) and not any(_acronym(w) for w in words[:-1]):
        return " ".join(words[:-1])
    return name


def has_marked_name(text: str) -> bool:
    """Whether the line prints a name followed by an affiliation marker symbol, or two names
    followed by numbers (one number a title may hold): 'Kalpesh Krishna♠ ∗ Erin Bransom♢',
    'Kalpesh Krishna1 Erin Bransom2'."""
    marked = [n for n in split_marked_names(text) if looks_like_name(n.name) and n.marks]
    return len(marked) >= 2 or any(not m.isdigit() for n in marked for m in n.marks)
