"""Small hand-built papers for chunking and search tests (one line per sentence)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from papermind.domain import (
    Box,
    Caption,
    Equation,
    Line,
    Page,
    Paper,
    Paragraph,
    Reference,
    Section,
    SectionKind,
    Segment,
)

SectionSpec = tuple[str, SectionKind, Sequence[str | tuple[str, str]]]
"""(title, kind, blocks): a block is paragraph text, or ('eq'|'cap', text)."""


def make_paper(sections: Sequence[SectionSpec], *, name: str = "paper", year: int | None = 2020,
               references: Sequence[str] = (), lines_per_page: int = 40) -> Paper:
    """A paper whose every block is one line; headings take a line too."""
    paper_id = hashlib.sha256(name.encode()).hexdigest()
    lines: list[Line] = []
    built: dict[str, list] = {"sections": [], "paragraphs": [], "equations": [], "captions": []}

    def add_line(text: str) -> tuple[int, int]:
        page, n = divmod(len(lines), lines_per_page)
        lines.append(Line(page=page + 1, n=n + 1, text=text,
                          box=Box(page=page + 1, x0=50, y0=60 + 12 * n, x1=550, y1=70 + 12 * n)))
        return page + 1, n + 1

    for s_index, (title, kind, blocks) in enumerate(sections, start=1):
        page, line = add_line(title)
        section_id = f"s{s_index}"
        built["sections"].append(Section(id=section_id, title=title, level=1, page=page,
                                         line=line, kind=kind))
        for b_index, block in enumerate(blocks):
            what, text = ("p", block) if isinstance(block, str) else block
            page, line = add_line(text)
            segment = Segment(start=0, end=len(text), page=page, line=line, line_start=0,
                              line_end=len(text))
            block_id = f"{what}{s_index}_{b_index}"
            if what == "eq":
                built["equations"].append(Equation(id=block_id, section_id=section_id,
                                                   text=text, segments=[segment]))
            elif what == "cap":
                built["captions"].append(Caption(id=block_id, section_id=section_id, text=text,
                                                 segments=[segment], kind="table"))
            else:
                built["paragraphs"].append(Paragraph(id=block_id, section_id=section_id,
                                                     text=text, segments=[segment]))
    refs = []
    for i, raw in enumerate(references, start=1):
        page, line = add_line(raw)
        refs.append(Reference(key=str(i), index=i, raw=raw, page=page, line=line))
    pages = [Page(number=p, lines=[ln for ln in lines if ln.page == p])
             for p in sorted({ln.page for ln in lines})]
    return Paper(id=paper_id, source_name=f"{name}.txt", source_type="txt", title=name,
                 year=year, pages=pages, references=refs, **built)
