"""Turn laid-out pages into a domain Paper: sections, blocks, metadata, references, citations."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from papermind.domain.geometry import Box
from papermind.domain.paper import (
    Caption,
    Citation,
    Equation,
    Finding,
    Line,
    LineKind,
    Page,
    Paper,
    Paragraph,
    Reference,
    Section,
    SourceType,
    TitleSource,
)
from papermind.ingest.blocks import BlockDraft, split_blocks
from papermind.ingest.citations import Resolver, find_markers
from papermind.ingest.equation_refs import equation_refs
from papermind.ingest.glyph_sizes import OCR_SIZE_SLACK, ocr_front_lines
from papermind.ingest.hidden_grade import severity
from papermind.ingest.identifiers import find_identifiers
from papermind.ingest.layout import FlowLine, LaidOutPage, RawFinding
from papermind.ingest.markdown_front import markdown_front
from papermind.ingest.metadata import FrontMatter, front_matter, inline_abstract, venue_year
from papermind.ingest.normalize import Vocabulary, join_lines
from papermind.ingest.pipe_tables import pipe_tables
from papermind.ingest.ref_split import (
    bare_heading,
    list_end,
    split_entries,
    without_running_heads,
)
from papermind.ingest.references import parse_entry, surname
from papermind.ingest.sections import Heading, find_headings
from papermind.ingest.tables import find_tables
from papermind.ingest.visible_instructions import visible_instructions
from papermind.ingest.word_spaces import close_split_words


def body_font_size(lines: Sequence[FlowLine]) -> float:
    """The most common font size, weighted by characters."""
    sizes: Counter[float] = Counter()
    for line in lines:
        if line.size:
            sizes[round(line.size * 2) / 2] += len(line.text)
    return sizes.most_common(1)[0][0] if sizes else 0.0


def _box(line: FlowLine) -> Box | None:
    if line.box is None:
        return None
    x0, y0, x1, y1 = line.box
    return Box(page=line.page, x0=round(x0, 2), y0=round(y0, 2), x1=round(x1, 2), y1=round(y1, 2))


def _domain_line(line: FlowLine, kind: LineKind = "text") -> Line:
    return Line(page=line.page, n=line.n, text=line.text, box=_box(line), kind=kind,
                font_size=round(line.size, 2) if line.size else None,
                confidence=line.confidence)


def _pages(pages: Sequence[LaidOutPage]) -> list[Page]:
    out = []
    for page in pages:
        for n, line in enumerate(page.lines, start=1):
            line.n = n
        furniture = [_domain_line(f, f.kind if f.kind != "text" else "header")  # type: ignore[arg-type]
                     for f in page.furniture]
        out.append(Page(number=page.number, width=round(page.width, 2), height=round(page.height, 2),
                        lines=[_domain_line(ln) for ln in page.lines], furniture=furniture,
                        ocr=page.ocr, rotation=page.turn))
    return out


def _sections(flat: Sequence[FlowLine], headings: Sequence[Heading]) -> list[Section]:
    sections: list[Section] = []
    stack: list[Section] = []
    for i, head in enumerate(headings, start=1):
        while stack and stack[-1].level >= head.level:
            stack.pop()
        parent = stack[-1].id if stack else None
        line = flat[head.index]
        section = Section(id=f"s{i}", title=head.title, number=head.number, level=head.level,
                          page=line.page, line=line.n, kind=head.kind, parent=parent)
        sections.append(section)
        stack.append(section)
    children: dict[str, list[str]] = {}
    for section in sections:
        if section.parent:
            children.setdefault(section.parent, []).append(section.id)
    return [s.model_copy(update={"children": children.get(s.id, [])}) for s in sections]


def _section_of(n_lines: int, headings: Sequence[Heading], sections: Sequence[Section]) -> list[str | None]:
    owner: list[str | None] = [None] * n_lines
    for head, nxt, section in zip(headings, [*headings[1:], None], sections, strict=False):
        end = nxt.index if nxt else n_lines
        for i in range(head.index, end):
            owner[i] = section.id
    return owner


def _reference_lines(flat: Sequence[FlowLine], headings: Sequence[Heading]) -> list[int]:
    """Lines of every reference list (an appendix may have a list of its own)."""
    lines: list[int] = []
    for k, head in enumerate(headings):
        if head.kind == "references":
            end = len(flat)
            for later in headings[k + 1:]:
                if later.level <= head.level or later.kind == "appendix":
                    end = later.index
                    break
            end = _bigger_text_starts(flat, head.index + 1, end)
            if lines:  # a later list: it ends where years stop (an appendix after it)
                end = list_end(flat, head.index + 1, end)
            lines += range(head.index + 1, end)
    if lines:
        return lines
    start = bare_heading(flat)
    if start is None:
        return []
    end = next((h.index for h in headings if h.index > start), len(flat))
    return list(range(start + 1, _bigger_text_starts(flat, start + 1, end)))


def _bigger_text_starts(flat: Sequence[FlowLine], start: int, end: int) -> int:
    """Where three lines in a row are set over 1 pt bigger than the list's usual size (author
    biographies after a journal's references), else ``end``."""
    sizes = sorted(line.size for line in flat[start:min(end, start + 40)] if line.box is not None)
    if not sizes:
        return end
    usual = sizes[len(sizes) // 2]
    for i in range(start, end - 2):
        if all(flat[j].box is not None and flat[j].size > usual + 1.0 for j in range(i, i + 3)):
            return i
    return end


def _build_references(lines: Sequence[FlowLine], vocab: Vocabulary
                      ) -> tuple[list[Reference], list[str]]:
    refs: list[Reference] = []
    names: list[str] = []
    used: Counter[str] = Counter()
    for index, entry in enumerate(split_entries(lines), start=1):
        raw, _ = join_lines(entry, vocab)
        parsed = parse_entry(raw)
        first = surname(parsed.authors[0]) if parsed.authors else ""
        key = parsed.label or f"{first or 'ref'}{parsed.year or ''}{parsed.year_suffix}"
        used[key] += 1
        if used[key] > 1:
            key = f"{key}-{used[key]}"
        refs.append(Reference(key=key, index=index, raw=parsed.raw, authors=parsed.authors,
                              title=parsed.title, year=parsed.year, venue=parsed.venue,
                              doi=parsed.doi, arxiv=parsed.arxiv, page=entry[0].page,
                              line=entry[0].n))
        names.append(first)
    return refs, names


def _blocks(drafts: Sequence[BlockDraft], vocab: Vocabulary
            ) -> tuple[list[Paragraph], list[Equation], list[Caption]]:
    paragraphs: list[Paragraph] = []
    equations: list[Equation] = []
    captions: list[Caption] = []
    for draft in drafts:
        text, segments = join_lines(draft.lines, vocab)
        if not text:
            continue
        if draft.kind == "equation":
            equations.append(Equation(id=f"eq{len(equations) + 1}", section_id=draft.section_id,
                                      text=text, segments=segments, label=draft.label))
        elif draft.kind == "caption":
            captions.append(Caption(id=f"cap{len(captions) + 1}", section_id=draft.section_id,
                                    text=text, segments=segments, kind=draft.caption_kind,
                                    label=draft.label))
        else:
            paragraphs.append(Paragraph(id=f"p{len(paragraphs) + 1}", section_id=draft.section_id,
                                        text=text, segments=segments))
    return paragraphs, equations, captions


def _citations(blocks: Sequence[Paragraph | Caption], resolver: Resolver) -> list[Citation]:
    out: list[Citation] = []
    for block in blocks:
        for marker in find_markers(block.text, resolver):
            seg = next((s for s in block.segments if s.end > marker.start), None)
            if seg is None:
                continue
            out.append(Citation(marker=marker.marker, page=seg.page, line=seg.line,
                                style="numeric" if marker.style == "numeric" else "author_year",
                                reference_keys=marker.keys))
    return out


_KEYWORDS = re.compile(r"^(keywords|key words|index terms|ccs concepts)\b", re.IGNORECASE)


def _abstract(flat: Sequence[FlowLine], sections: Sequence[Section],
              paragraphs: Sequence[Paragraph], stop: int) -> str:
    ids = {s.id for s in sections if s.kind == "abstract"}
    inside = [p for p in paragraphs if p.section_id in ids]
    if inside:
        sizes = {(ln.page, ln.n): ln.size for ln in flat}
        first = sizes.get((inside[0].segments[0].page, inside[0].segments[0].line), 0.0)
        same = [p for p in inside if abs(sizes.get((p.segments[0].page, p.segments[0].line), 0.0)
                                          - first) < 0.6 and not _KEYWORDS.match(p.text)]
        return " ".join(p.text for p in same)
    for i in range(min(stop if stop > 0 else 40, len(flat))):
        if inline := inline_abstract(flat[i].text):
            block = next((p.text for p in paragraphs if p.first and p.first.page == flat[i].page
                          and p.first.line == flat[i].n), inline)
            return inline_abstract(block) or block
    return ""


def _first_page_front(pages: Sequence[LaidOutPage], front: Sequence[FlowLine]) -> list[FlowLine]:
    """Front matter before the first heading, the first page's furniture and its foot."""
    if not pages:
        return list(front)
    foot = [ln for ln in pages[0].lines if ln.box and ln.box[1] > 0.8 * pages[0].height]
    return [*front, *pages[0].furniture, *foot]


def _own_front(pages: Sequence[LaidOutPage], reference_lines: set[int]) -> list[str]:
    """The first page's furniture and flow text outside the bibliography (identifiers' home)."""
    if not pages:
        return []
    flow = [ln.text for i, ln in enumerate(pages[0].lines) if i not in reference_lines]
    return [*(ln.text for ln in pages[0].furniture), *flow]


def _findings(raw: Sequence[RawFinding], pages: Sequence[LaidOutPage]) -> list[Finding]:
    visible = {p.number: [ln.text for ln in (*p.lines, *p.furniture)] for p in pages}
    out = []
    for f in raw:
        grade, _ = severity(f.text, visible.get(f.page, []))
        box = Box(page=f.page, x0=f.box[0], y0=f.box[1], x1=f.box[2], y1=f.box[3]) if f.box else None
        out.append(Finding(kind="hidden_text", page=f.page, text=f.text, reason=f.reason,
                           box=box, severity=grade))
    return out


_SURE_OCR = 0.8
"""An OCR'd title line read with less confidence than this is a guess."""


def _front(flat: Sequence[FlowLine], stop: int, vocab: Vocabulary, body: float,
           source_type: SourceType) -> tuple[FrontMatter, TitleSource]:
    """Title and authors, and where the title came from (a heading, lines set apart by their
    size, or only the first line of text: a guess)."""
    if source_type == "md":
        meta, heading = markdown_front(flat)
        return meta, "heading" if heading else "first_line"
    slack = 0.0
    if flat and flat[0].confidence is not None:  # a scan: sizes estimated from glyph widths
        (flat, body), slack = ocr_front_lines(flat, stop if stop > 0 else 30), OCR_SIZE_SLACK
    meta = front_matter(flat, stop, vocab, body, slack)
    first = flat[meta.title_lines[0]] if meta.title_lines else None
    set_apart = first is not None and first.box is not None and (
        first.bold or max(first.size, first.peak) > body + 0.5) and (
        first.confidence is None or first.confidence >= _SURE_OCR)
    return meta, "first_page" if set_apart else "first_line"


def build_paper(pages: list[LaidOutPage], findings: Sequence[RawFinding], *, paper_id: str,
                source_name: str, source_type: SourceType, warnings: Sequence[str] = ()) -> Paper:
    """The full Paper from pages whose flow lines are already in reading order."""
    if source_type == "pdf":
        close_split_words([ln for p in pages for ln in (*p.lines, *p.furniture)])
    domain_pages = _pages(pages)
    flat = [line for page in pages for line in page.lines]
    body = body_font_size(flat)
    headings = find_headings(flat, body)
    first_heading = headings[0].index if headings else len(flat)
    vocab = Vocabulary.of(flat)
    meta, title_source = _front(flat, first_heading, vocab, body, source_type)
    title, warnings = meta.title, list(warnings)
    if meta.weak is not None:
        title, title_source = file_title(source_name), "file_name"
        warnings.append(f"title: {meta.weak}; the file name stands in")
    consumed = set(meta.title_lines) | set(meta.author_lines)
    headings = [h for h in headings if h.index not in consumed]
    sections = _sections(flat, headings)
    owner = _section_of(len(flat), headings, sections)
    ref_lines = _reference_lines(flat, headings)
    skip = consumed | {h.index for h in headings if not h.run_in} | set(ref_lines)
    skip |= {i for h in headings for i in h.extra}
    paragraphs, equations, captions = _blocks(split_blocks(flat, owner, skip), vocab)
    references, names = _build_references(without_running_heads(flat, ref_lines), vocab)
    resolver = Resolver(references, names)
    ids = find_identifiers(_own_front(pages, set(ref_lines)))
    return Paper(
        id=paper_id, source_name=source_name, source_type=source_type, title=title,
        title_source=title_source,
        authors=meta.authors, author_marks=meta.marks, abstract=_abstract(flat, sections, paragraphs, first_heading),
        year=venue_year(_first_page_front(pages, flat[:first_heading])), pages=domain_pages, sections=sections, paragraphs=paragraphs,
        equations=equations, equation_refs=equation_refs(paragraphs, equations),
        captions=captions, tables=find_tables(pages, captions) if source_type == "pdf"
        else pipe_tables(pages, captions),
        references=references, doi=ids.doi, arxiv=ids.arxiv,
        citations=_citations([*paragraphs, *captions], resolver),
        findings=[*_findings(findings, pages), *visible_instructions(pages)],
        warnings=list(warnings),
    )


def file_title(source_name: str) -> str:
    """A title from a file name: 'attention_is-all.pdf' -> 'attention is all'."""
    stem = source_name.rsplit("/", 1)[-1]
    stem = stem.rsplit(".", 1)[0] if "." in stem else stem
    return " ".join(stem.replace("_", " ").split()) or source_name
