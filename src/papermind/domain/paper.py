"""The structured paper: pages of numbered lines, and the blocks and metadata built on them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from pydantic import Field

from papermind.domain.base import Frozen
from papermind.domain.geometry import Box

LineKind = Literal["text", "header", "footer", "page_number", "stamp"]
SectionKind = Literal[
    "abstract", "introduction", "related_work", "method", "experiments", "results",
    "discussion", "conclusion", "references", "appendix", "acknowledgements", "other",
]
SourceType = Literal["pdf", "txt", "md"]
TitleSource = Literal["first_page", "heading", "first_line", "file_name", "metadata"]
TITLE_SOURCES: dict[str, str] = {
    "first_page": "the first page's title lines, set apart by their font size",
    "heading": "the Markdown document's first heading that is not a section name",
    "first_line": "the first line of text, with no layout to confirm it (plain text, or a "
                  "title set no bigger than the body text): a guess",
    "file_name": "the first page had no convincing title, so the file name stands in: a guess",
    "metadata": "a reference manager's or scholarly source's record (an import, an add by id)",
}
"""Where a paper's title came from; the last two are guesses that interfaces say are."""
GUESSED_TITLE_SOURCES = frozenset({"first_line", "file_name"})
Severity = Literal["low", "medium", "high"]


class Line(Frozen):
    """One text line. Flow lines are numbered per page from 1 in reading order."""

    page: int = Field(description="1-based page number")
    n: int = Field(description="1-based line number within the page (reading order)")
    text: str = Field(description="line text, ligatures and odd code points normalised")
    box: Box | None = Field(default=None, description="line box; None for text/markdown input")
    kind: LineKind = Field(default="text", description="furniture lines are kept but not in the flow")
    font_size: float | None = Field(default=None, description="dominant font size in points")
    confidence: float | None = Field(
        default=None, description="OCR confidence 0..1 of a line read from a page image; "
                                  "None for text from the PDF's own text layer")


class Page(Frozen):
    """A page: its size, its numbered flow lines and its furniture (headers, stamps...)."""

    number: int = Field(description="1-based page number")
    width: float = Field(default=0.0, description="width in points (0 for text input)")
    height: float = Field(default=0.0, description="height in points (0 for text input)")
    lines: list[Line] = Field(default_factory=list, description="flow lines, n = 1..len")
    furniture: list[Line] = Field(
        default_factory=list,
        description="headers, footers, page numbers and side stamps removed from the flow",
    )
    ocr: bool = Field(default=False, description="the lines were read from the page image by OCR")
    rotation: int = Field(
        default=0, description="degrees clockwise the rendered page is turned to show its text "
                               "upright (a page scanned sideways); boxes are in that turned page")

    def line(self, n: int) -> Line:
        """Flow line number ``n`` (1-based)."""
        return self.lines[n - 1]


class LineRef(Frozen):
    """A (page, line) position."""

    page: int
    line: int


class Segment(Frozen):
    """Maps ``[start, end)`` of a block's normalised text back to a span of one line's text."""

    start: int = Field(description="offset in the block text (inclusive)")
    end: int = Field(description="offset in the block text (exclusive)")
    page: int
    line: int
    line_start: int = Field(description="offset in the line text (inclusive)")
    line_end: int = Field(description="offset in the line text (exclusive)")


class Block(Frozen):
    """A run of text in the flow (paragraph, equation, caption) with its line mapping."""

    id: str = Field(description="stable id within the paper, e.g. 'p12', 'eq3', 'cap2'")
    section_id: str | None = Field(default=None, description="id of the enclosing section")
    text: str = Field(description="normalised text: de-hyphenated, whitespace collapsed")
    segments: list[Segment] = Field(default_factory=list, description="offset map to lines")

    @property
    def first(self) -> LineRef | None:
        return LineRef(page=self.segments[0].page, line=self.segments[0].line) if self.segments else None

    @property
    def last(self) -> LineRef | None:
        return LineRef(page=self.segments[-1].page, line=self.segments[-1].line) if self.segments else None


class Paragraph(Block):
    """A body paragraph."""


class Equation(Block):
    """A display equation in text form, with its label when numbered."""

    label: str | None = Field(default=None, description="equation number as printed, e.g. '3'")


class EquationRef(Frozen):
    """An in-text reference to a numbered equation ('Eq. 3', 'Equation (3)')."""

    marker: str = Field(description="as printed, e.g. 'Eq. (3)'")
    label: str = Field(description="the equation number referred to")
    page: int
    line: int
    equation_id: str | None = Field(default=None, description="id of the equation; None if not found")


class Caption(Block):
    """A table or figure caption."""

    kind: Literal["figure", "table"]
    label: str | None = Field(default=None, description="number as printed, e.g. '2' for 'Table 2'")


class TableCell(Frozen):
    """One table cell as printed, with its box (a cell spanning columns is one cell)."""

    text: str
    box: Box | None = None
    column: int = Field(default=0, description="0-based column of the cell's left edge")


class Table(Frozen):
    """A table of a born-digital PDF: rows of cells found from its caption and word alignment.

    The table's lines stay in the page's flow too (``lines``), so quotes still anchor there.
    """

    id: str = Field(description="stable id within the paper, e.g. 'tab1'")
    number: str | None = Field(default=None, description="'2' for 'Table 2'")
    caption: str = ""
    page: int
    box: Box | None = Field(default=None, description="union of the cells' boxes")
    rows: list[list[TableCell]] = Field(default_factory=list, description="rows top to bottom")
    header_rows: int = Field(default=0, description="leading rows that hold column labels")
    lines: list[LineRef] = Field(default_factory=list, description="flow lines of the table body")


class Section(Frozen):
    """A section heading; ``children`` lists the ids of its direct subsections."""

    id: str = Field(description="stable id within the paper, e.g. 's3'")
    title: str = Field(description="heading text without its number")
    number: str | None = Field(default=None, description="'3.1' for numbered headings")
    level: int = Field(description="1 = section, 2 = subsection, 3 = subsubsection")
    page: int
    line: int
    kind: SectionKind = Field(default="other", description="coarse role used by search filters")
    parent: str | None = Field(default=None, description="id of the parent section")
    children: list[str] = Field(default_factory=list, description="ids of direct subsections")


class Reference(Frozen):
    """One entry of the paper's bibliography."""

    key: str = Field(description="'1', '2'... for numeric styles, else 'smith2020a' style keys")
    index: int = Field(description="1-based position in the reference list")
    raw: str = Field(description="the entry as printed (normalised whitespace)")
    authors: list[str] = Field(default_factory=list, description="author names as printed")
    title: str | None = None
    year: int | None = None
    venue: str | None = None
    doi: str | None = None
    arxiv: str | None = None
    page: int | None = None
    line: int | None = None


class Citation(Frozen):
    """An in-text citation marker and the reference entries it resolves to."""

    marker: str = Field(description="marker as printed, e.g. '[3, 7-9]' or '(Smith et al., 2020)'")
    page: int
    line: int
    style: Literal["numeric", "author_year"] = "numeric"
    reference_keys: list[str] = Field(default_factory=list, description="resolved entry keys")


class Finding(Frozen):
    """Something ingestion noticed that a reader should know, e.g. hidden text."""

    kind: str = Field(description="e.g. 'hidden_text'")
    page: int
    text: str
    reason: str = Field(description="why it was flagged, e.g. 'white fill', 'font 1.0 pt'")
    box: Box | None = None
    severity: Severity = Field(
        default="medium",
        description="high: instructions to a reader or model; low: labels or text that "
                    "duplicates visible text (e.g. white axis labels in a figure); medium: other")


class Paper(Frozen):
    """A parsed paper. ``id`` is the content hash of the original file."""

    id: str = Field(description="sha256 of the original file bytes (hex)")
    source_name: str = Field(default="", description="original file name")
    source_type: SourceType = "pdf"
    title: str = ""
    title_source: TitleSource = Field(
        default="first_page", description="where the title came from: " + "; ".join(
            f"{key}: {text}" for key, text in TITLE_SOURCES.items()))
    authors: list[str] = Field(default_factory=list, description="author names as printed, "
                               "affiliation markers removed")
    author_marks: list[list[str]] = Field(
        default_factory=list, description="per author (same order as ``authors``), the "
        "affiliation markers printed after the name ('1', '†', '♠'); the footnotes or "
        "affiliation lines they point to stay in the first page's text. Empty when unknown")
    abstract: str = ""
    year: int | None = None
    doi: str | None = Field(default=None, description="the paper's own DOI, lower case")
    arxiv: str | None = Field(default=None, description="the paper's arXiv id, without version")
    pages: list[Page] = Field(default_factory=list)
    sections: list[Section] = Field(default_factory=list, description="all headings, document order")
    paragraphs: list[Paragraph] = Field(default_factory=list)
    equations: list[Equation] = Field(default_factory=list)
    equation_refs: list[EquationRef] = Field(default_factory=list,
                                             description="'Eq. 3' references, linked to equations")
    captions: list[Caption] = Field(default_factory=list)
    tables: list[Table] = Field(default_factory=list, description="tables as rows of cells")
    references: list[Reference] = Field(default_factory=list)
    citations: list[Citation] = Field(default_factory=list)
    findings: list[Finding] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list, description="non-fatal ingestion notes")

    def page(self, number: int) -> Page:
        """Page ``number`` (1-based)."""
        return self.pages[number - 1]

    @property
    def title_guessed(self) -> bool:
        """Whether the title is a guess (the first line of text, or the file name)."""
        return self.title_source in GUESSED_TITLE_SOURCES

    @property
    def ocr_pages(self) -> list[int]:
        """Numbers of the pages whose lines were read by OCR."""
        return [page.number for page in self.pages if page.ocr]

    def lines(self) -> Iterator[Line]:
        """All flow lines in reading order."""
        for page in self.pages:
            yield from page.lines

    def section(self, section_id: str) -> Section:
        for section in self.sections:
            if section.id == section_id:
                return section
        raise KeyError(section_id)

    def section_path(self, section_id: str | None) -> list[str]:
        """Titles from the top-level section down to ``section_id``."""
        path: list[str] = []
        by_id = {s.id: s for s in self.sections}
        while section_id is not None and section_id in by_id:
            path.insert(0, by_id[section_id].title)
            section_id = by_id[section_id].parent
        return path
