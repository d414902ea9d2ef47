"""Structure-aware chunking: a paper's blocks -> search chunks with anchors.

Paragraphs and display equations are grouped in reading order within one section up to a
token budget and never across sections (a subsection is its own section). Captions are
chunks of their own; the bibliography is chunked separately as kind ``reference`` so it never
competes with content. Every chunk carries the anchors (page, line runs) of the lines it covers.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from papermind.domain import Anchor, Block, Chunk, ChunkKind, Equation, Paper, SectionKind

_TOKEN = re.compile(r"\w+|[^\w\s]")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\[\"'])")


def count_tokens(text: str) -> int:
    """Approximate model tokens: words and punctuation marks."""
    return len(_TOKEN.findall(text))


def index_text(chunk: Chunk) -> str:
    """What gets indexed and embedded: the section path as context, then the text."""
    if not chunk.section_path:
        return chunk.text
    return " > ".join(chunk.section_path) + "\n" + chunk.text


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class _Piece:
    """A block, or a slice of one: ``block.text[start:end]``."""

    block: Block
    start: int
    end: int

    @property
    def text(self) -> str:
        return self.block.text[self.start:self.end].strip()


def chunk_paper(paper: Paper, max_tokens: int = 220) -> list[Chunk]:
    """All chunks of ``paper``: content (with equations), captions, then references."""
    if max_tokens < 16:
        raise ValueError("max_tokens must be at least 16")
    chunks: list[Chunk] = []

    def emit(kind: ChunkKind, section_id: str | None, pieces: Sequence[_Piece]) -> None:
        text = " ".join(p.text for p in pieces if p.text)
        if text:
            chunks.append(_make_chunk(paper, len(chunks), kind, section_id, text, pieces))

    for section_id, group in _flow_groups(paper):
        kind_of_section = _section_kind(paper, section_id)
        for packed in _pack(group, max_tokens):
            all_equations = all(isinstance(p.block, Equation) for p in packed)
            kind: ChunkKind = "reference" if kind_of_section == "references" and paper.references \
                else "equation" if all_equations else "content"
            if kind == "reference":
                continue  # the parsed bibliography below is the better source
            emit(kind, section_id, packed)
    for caption in paper.captions:
        emit("caption", caption.section_id, [_Piece(caption, 0, len(caption.text))])
    if paper.abstract and not any(c.section_kind == "abstract" for c in chunks):
        chunks.append(_abstract_chunk(paper, len(chunks)))
    chunks.extend(_reference_chunks(paper, len(chunks), max_tokens))
    return chunks or _line_chunks(paper, max_tokens)


def _line_chunks(paper: Paper, max_tokens: int) -> list[Chunk]:
    """The flow lines themselves, packed up to the budget: for a paper whose only text
    became its title or headings (a one-line PDF), so it is still found by search."""
    chunks: list[Chunk] = []
    texts: list[str] = []
    lines: list[tuple[int, int]] = []
    flow = [(page.number, line) for page in paper.pages for line in page.lines]
    for page, line in [*flow, (0, None)]:
        if texts and (line is None or count_tokens(" ".join(texts)) + count_tokens(line.text)
                      > max_tokens):
            chunk = Chunk(id=f"{paper.id}:{len(chunks)}", paper_id=paper.id, text=" ".join(texts),
                          anchors=line_anchors(paper, lines), year=paper.year)
            chunks.append(chunk.model_copy(
                update={"content_hash": content_hash(index_text(chunk))}))
            texts, lines = [], []
        if line is not None and line.text.strip():
            texts.append(line.text.strip())
            lines.append((page, line.n))
    return chunks


def _flow_groups(paper: Paper) -> Iterator[tuple[str | None, list[Block]]]:
    """Paragraphs and equations in reading order, split into runs of one section."""
    blocks: list[Block] = [*paper.paragraphs, *paper.equations]
    order = {id(b): i for i, b in enumerate(blocks)}
    blocks.sort(key=lambda b: (b.segments[0].page, b.segments[0].line, order[id(b)])
                if b.segments else (10**9, 0, order[id(b)]))
    current: list[Block] = []
    for block in blocks:
        if current and block.section_id != current[0].section_id:
            yield current[0].section_id, current
            current = []
        current.append(block)
    if current:
        yield current[0].section_id, current


def _pack(blocks: Sequence[Block], max_tokens: int) -> Iterator[list[_Piece]]:
    """Greedy packing of blocks (long ones split at sentences) up to ``max_tokens``."""
    packed: list[_Piece] = []
    used = 0
    for block in blocks:
        for piece in _split(block, max_tokens):
            size = count_tokens(piece.text)
            if packed and used + size > max_tokens:
                yield packed
                packed, used = [], 0
            packed.append(piece)
            used += size
    if packed:
        yield packed


def _split(block: Block, max_tokens: int) -> Iterator[_Piece]:
    """The block whole, or consecutive sentence groups of at most ``max_tokens``."""
    if count_tokens(block.text) <= max_tokens:
        yield _Piece(block, 0, len(block.text))
        return
    bounds = [0] + [m.end() for m in _SENTENCE_END.finditer(block.text)] + [len(block.text)]
    start, used = 0, 0
    for a, b in zip(bounds, bounds[1:], strict=False):
        size = count_tokens(block.text[a:b])
        if used and used + size > max_tokens:
            yield _Piece(block, start, a)
            start, used = a, 0
        used += size
    if start < len(block.text):
        yield _Piece(block, start, len(block.text))


def _section_kind(paper: Paper, section_id: str | None) -> SectionKind:
    """The section's kind, inherited from its ancestors when it is 'other'."""
    by_id = {s.id: s for s in paper.sections}
    while section_id is not None and section_id in by_id:
        section = by_id[section_id]
        if section.kind != "other":
            return section.kind
        section_id = section.parent
    return "other"


def _make_chunk(paper: Paper, n: int, kind: ChunkKind, section_id: str | None, text: str,
                pieces: Sequence[_Piece]) -> Chunk:
    lines = [(s.page, s.line) for p in pieces for s in p.block.segments
             if s.end > p.start and s.start < p.end]
    chunk = Chunk(id=f"{paper.id}:{n}", paper_id=paper.id, kind=kind,
                  section_path=paper.section_path(section_id),
                  section_kind=_section_kind(paper, section_id), text=text,
                  anchors=line_anchors(paper, lines), year=paper.year)
    return chunk.model_copy(update={"content_hash": content_hash(index_text(chunk))})


def line_anchors(paper: Paper, lines: Sequence[tuple[int, int]]) -> list[Anchor]:
    """(page, line) positions -> one Anchor per run of consecutive lines on a page."""
    anchors: list[Anchor] = []
    run: list[tuple[int, int]] = []
    for page, line in dict.fromkeys(lines):  # ordered, de-duplicated
        if run and (page != run[-1][0] or not 0 <= line - run[-1][1] <= 1):
            anchors.append(_anchor(paper, run))
            run = []
        run.append((page, line))
    if run:
        anchors.append(_anchor(paper, run))
    return anchors


def _anchor(paper: Paper, run: Sequence[tuple[int, int]]) -> Anchor:
    page = run[0][0]
    boxes = []
    if 1 <= page <= len(paper.pages):
        flow = paper.page(page).lines
        boxes = [box for _, n in run if 1 <= n <= len(flow) and (box := flow[n - 1].box)]
    return Anchor(paper_id=paper.id, page=page, line_start=run[0][1], line_end=run[-1][1],
                  boxes=boxes)


def _abstract_chunk(paper: Paper, n: int) -> Chunk:
    chunk = Chunk(id=f"{paper.id}:{n}", paper_id=paper.id, section_path=["Abstract"],
                  section_kind="abstract", text=paper.abstract, year=paper.year)
    return chunk.model_copy(update={"content_hash": content_hash(index_text(chunk))})


def _reference_chunks(paper: Paper, first: int, max_tokens: int) -> list[Chunk]:
    """Bibliography entries grouped up to the budget, kind ``reference``."""
    chunks: list[Chunk] = []
    group: list[str] = []
    lines: list[tuple[int, int]] = []
    used = 0
    entries = [(r.raw, (r.page, r.line) if r.page and r.line else None) for r in paper.references]
    for raw, where in [*entries, ("", None)]:
        size = count_tokens(raw)
        if group and (not raw or used + size > max_tokens):
            chunk = Chunk(id=f"{paper.id}:{first + len(chunks)}", paper_id=paper.id,
                          kind="reference", section_path=["References"],
                          section_kind="references", text="\n".join(group),
                          anchors=line_anchors(paper, lines), year=paper.year)
            chunks.append(chunk.model_copy(
                update={"content_hash": content_hash(index_text(chunk))}))
            group, lines, used = [], [], 0
        if raw:
            group.append(raw)
            lines.extend([where] if where else [])
            used += size
    return chunks
