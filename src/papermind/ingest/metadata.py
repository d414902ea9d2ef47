"""Title, authors and abstract from the first page's lines."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from papermind.i18n.scripts import has_cjk
from papermind.ingest.author_names import (
    AuthorName,
    drop_trailing_acronym,
    has_marked_name,
    looks_like_name,
    split_marked_names,
)
from papermind.ingest.layout import FlowLine
from papermind.ingest.normalize import Vocabulary, join_lines

AFFILIATION = re.compile(
    r"@|\b(univ|universit|institut|department|dept\.?|school|college|laborator|lab\b|inc\.|"
    r"corp|llc\b|ltd\b|gmbh\b|research|centre|center|faculty|google|microsoft|email|e-mail|http|www\.|street|"
    r"road|ave\b|usa|germany|china|france|japan|canada|uk\b|double-blind|anonymous|science|"
    r"division|group|via\b|\d{3,})",
    re.IGNORECASE,
)
NOT_TITLE = re.compile(r"^(arxiv|preprint|proceedings|journal|vol\.|published|under review|"
                        r"accepted|to appear|copyright|workshop|conference)", re.IGNORECASE)
# a thesis cover's genre line ('中山大学硕士学位论文', '博士学位论文'): a label, not the title
_GENRE_LABEL = re.compile(r"^\S{0,16}(学位论文|毕业论文|博士论文|硕士论文|毕业设计)$")
_HONORIFIC = re.compile(r"^(?:prof\.?|professor|dr\.?)\s+", re.IGNORECASE)
_TITLE_MARKS = re.compile(r"[\s∗*†‡§¶˚⋆]+$")
_ADDRESS = re.compile(r"@|https?://|www\.")
"""An e-mail or web address: never a title line (a scan's wide glyphs can make it look big)."""
_ABSTRACT_INLINE = re.compile(r"^abstract\s*[-—–:.]\s*", re.IGNORECASE)


@dataclass(slots=True)
class FrontMatter:
    """Indices of title/author lines (in the flow) and the parsed values."""

    title: str = ""
    title_lines: list[int] = field(default_factory=list)
    authors: list[str] = field(default_factory=list)
    marks: list[list[str]] = field(default_factory=list)
    """Per author (same order), the affiliation markers printed after the name."""
    author_lines: list[int] = field(default_factory=list)
    weak: str | None = None
    """Why the first page has no convincing title (None: it has one)."""

    def add_authors(self, names: Sequence[AuthorName]) -> None:
        """Append the names not already listed, each with its markers."""
        for author in names:
            if author.name not in self.authors:
                self.authors.append(author.name)
                self.marks.append(author.marks)


def _size(line: FlowLine) -> float:
    # small caps: the sampled size may be the small one; a drop capital is far bigger
    return line.peak if line.size < line.peak <= 1.5 * line.size else line.size


def _continues_title(line: FlowLine, start: FlowLine, above: FlowLine, slack: float) -> bool:
    """Same title font as the first line (a small-caps tail may sample smaller) and close;
    a smaller line of names in the title's face is the author line, not more title."""
    if line.page != start.page:
        return False
    same_size = abs(_size(line) - _size(start)) <= max(0.5, slack * _size(start))
    if slack and _names_line(line.text):
        return False  # estimated sizes: a line of names is told apart by its shape
    same = same_size or (
        bool(line.font) and line.font == start.font and _size(line) >= 0.7 * _size(start))
    if not same or line.bold != start.bold or has_marked_name(line.text):
        return False  # 'Kalpesh Krishna♠ ∗ Erin Bransom♢' starts the author block
    if not same_size and _names_line(line.text):
        return False
    if has_cjk(start.text) and not has_cjk(line.text):
        return False  # a Chinese title followed by its English translation
    return not (line.box and above.box and line.box[1] - above.box[3] > line.height)


def _title_candidates(lines: Sequence[FlowLine], limit: int, slack: float) -> list[int]:
    first_page = [i for i in range(limit) if lines[i].page == lines[0].page]
    usable = [i for i in first_page if len(lines[i].text) > 3 and not NOT_TITLE.match(lines[i].text)
              and not _ADDRESS.search(lines[i].text)
              and not _GENRE_LABEL.match(lines[i].text.replace(" ", ""))
              and sum(ch.isalpha() for ch in lines[i].text) >= 4]
    if not usable:
        return []
    if lines[usable[0]].box is None:
        return usable[:1]
    biggest = max(_size(lines[i]) for i in usable[:40])
    start = next(i for i in usable[:40] if _size(lines[i]) >= biggest - max(0.3, slack * biggest))
    picked = [start]
    for j in range(start + 1, min(start + 5, limit)):
        if not _continues_title(lines[j], lines[start], lines[picked[-1]], slack):
            break
        picked.append(j)
    return picked


def split_authors(text: str) -> list[AuthorName]:
    """The names of one author line, markers kept apart; affiliation parts left out."""
    names: list[AuthorName] = []
    for cand in split_marked_names(text):
        cand.name = drop_trailing_acronym(_HONORIFIC.sub("", cand.name).strip(" *∗†‡"))
        if AFFILIATION.search(cand.name):
            cand.name = _name_before_acronym(cand.name)
        if cand.name and looks_like_name(cand.name):
            names.append(cand)
    return names


def _name_before_acronym(text: str) -> str:
    """'Takayuki Osogami IBM Research - Tokyo' -> 'Takayuki Osogami': a short name, then an
    institution that starts with its acronym; '' when the text has no such shape."""
    words = text.split()
    cut = next((k for k, w in enumerate(words) if len(w) >= 2 and w.isupper() and w.isalpha()), 0)
    head = " ".join(words[:cut])
    return head if 2 <= cut <= 3 and not AFFILIATION.search(head) else ""


def _names_line(text: str) -> bool:
    """'Waleed Ammar, Dirk Groeneveld, Chandra Bhagavatula, ...': two or more names, each
    part of the line a name."""
    parts = [p for p in re.split(r",|;|\band\b|&", text) if p.strip()]
    return len(parts) >= 2 and len(split_authors(text)) >= max(2, len(parts) - 1)


_KEY_LIKE = re.compile(r"^(?:\d+|[a-z]+\d{4}[a-z]*|[A-Za-z]+:\d+)$")
"""'2', 'smith2020deep', 'ref:12': a citation key, not a title."""
_WORD_TAIL = re.compile(r"^[a-z]{1,6}-[a-z]")
_SENTENCE_END = re.compile(r"[.;:,]$")


def weak_title(title: str, lines: Sequence[FlowLine], body: float) -> str | None:
    """Why the text taken as the title is no convincing title (None when it is one): nothing
    found, a citation key, or a line of body text (body size, or a sentence's shape)."""
    text = title.strip()
    if sum(ch.isalpha() for ch in text) < 4 or _KEY_LIKE.match(text):
        return f"{text!r} is not a title" if text else "no title on the first page"
    if not lines or lines[0].box is None or not body:
        return None  # plain text: the first line is all there is to go by
    bigger = max(_size(line) for line in lines) > body + 0.5
    # 'order to compute the ...', 'dem-solving' (the tail of a word hyphenated across lines)
    fragment = text[:1].islower() and (len(text.split()) >= 4 or _WORD_TAIL.match(text) is not None)
    plain_sentence = not lines[0].bold and _SENTENCE_END.search(text) is not None
    if not bigger and (fragment or plain_sentence or len(text.split()) > 30):
        return f"{text[:60]!r} is set as body text, not as a title"
    if fragment:
        return f"{text[:60]!r} reads as part of a sentence"
    return None


def front_matter(lines: Sequence[FlowLine], stop: int, vocab: Vocabulary | None = None,
                 body: float = 0.0, slack: float = 0.0) -> FrontMatter:
    """Parse title and authors among ``lines[:stop]`` (stop = first heading or abstract).
    ``body``: the body text's font size; a title set no bigger that reads as a sentence is
    weak (``weak`` says why; the caller falls back to the file name). ``slack``: how far
    (a share) sizes may differ and still be one size, for sizes that are estimates (a scan)."""
    meta = FrontMatter()
    if not lines:
        meta.weak = "no text"
        return meta
    limit = max(1, min(stop if stop > 0 else 30, len(lines)))
    meta.title_lines = _title_candidates(lines, limit, slack)
    title, _ = join_lines([lines[i] for i in meta.title_lines], vocab)
    meta.title = clean_title(title)
    meta.weak = weak_title(meta.title, [lines[i] for i in meta.title_lines], body)
    if meta.weak is not None:
        meta.title_lines = []  # its lines stay body text, and no author line follows a non-title
        return meta
    start = (meta.title_lines[-1] + 1) if meta.title_lines else 0
    for i in range(start, min(limit, start + 30)):
        line = lines[i]
        if _ABSTRACT_INLINE.match(line.text) or line.text.lower().startswith("abstract"):
            break
        # names set apart by wide gaps ('Ruifang Ge      Raymond J. Mooney') are parted there
        names = split_authors("\u2003".join(t for t, _ in line.pieces) if line.pieces else line.text)
        if AFFILIATION.search(line.text):  # 'Xiaoyu Wu∗ Rice University': only a marked name
            meta.add_authors([n for n in names if n.marks])
            meta.author_lines.append(i)
            continue
        if names:
            meta.add_authors(names)
            meta.author_lines.append(i)
        elif meta.authors and len(line.text.split()) > 12:
            break
    return meta


def clean_title(text: str) -> str:
    """A title without Markdown '#' marks or a trailing footnote marker."""
    return _TITLE_MARKS.sub("", text.lstrip("#").strip()).strip()


def inline_abstract(text: str) -> str | None:
    """The abstract text when a line reads 'Abstract — ...' or 'Abstract. ...'."""
    match = _ABSTRACT_INLINE.match(text)
    return text[match.end():] if match and len(text) > match.end() + 20 else None


_VENUE = re.compile(r"proceedings|conference|workshop|journal|arxiv|copyright|©|published|"
                    r"accepted|preprint|transactions|iclr|neurips|nips|icml|acl|emnlp|naacl|"
                    r"cvpr|kdd|vldb|sigir|aaai|ijcai|osdi|aistats|association|annual meeting|symposium",
                    re.IGNORECASE)
_YEAR = re.compile(r"(?<!\d)(19[5-9]\d|20[0-4]\d)(?!\d)")


def venue_year(lines: Sequence[FlowLine]) -> int | None:
    """The latest year printed on a venue, preprint or copyright line of the first page."""
    years = [int(y) for line in lines if _VENUE.search(line.text) for y in _YEAR.findall(line.text)]
    return max(years) if years else None
