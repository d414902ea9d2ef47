"""What the MCP tools return: one described model per tool (its JSON schema is the tool's
output schema) and the cut that keeps every text within the result budget."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

CUT_MARK = " [...]"


def cut(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters, marked when cut."""
    return text if len(text) <= limit else text[:max(0, limit - len(CUT_MARK))] + CUT_MARK


class Passage(BaseModel):
    """A span of a paper, as every citation gives it: page and lines, and the text there."""

    paper_id: str = Field(description="library id of the paper (sha256 of its file)")
    page: int = Field(description="1-based page of the first line")
    line_start: int = Field(description="first line on `page` (lines are numbered per page)")
    line_end: int = Field(description="last line (on `page_end` when the span crosses pages)")
    page_end: int | None = Field(default=None, description="last page when the span crosses pages")
    text: str = Field(description="the span's text (cut when very long): the paper's exact "
                      "text where a quote or claim was checked; for search hits the indexed "
                      "passage (whitespace and hyphenation normalised); read_lines gives lines "
                      "verbatim")
    link: str | None = Field(default=None, description="the web reader at these lines, when "
                             "mcp.reader_url is set")


class Hit(Passage):
    score: float = Field(description="relevance (higher is better; not comparable across queries)")
    title: str = Field(default="", description="title of the paper")
    section: str = Field(default="", description="section path, e.g. '3 Method > 3.1 Loss'")


class SearchResult(BaseModel):
    query: str
    hits: list[Hit]


class PaperRow(BaseModel):
    paper_id: str
    title: str
    authors: list[str] = Field(description="at most 10 names")
    year: int | None
    pages: int
    source_type: str = Field(description="'pdf', 'txt' or 'md'")
    added_at: str = Field(description="when it was added (UTC, ISO 8601)")


class PaperList(BaseModel):
    papers: list[PaperRow]
    more: bool = Field(description="true when more papers match than `limit`")


class OutlineEntry(BaseModel):
    section_id: str
    number: str | None
    title: str
    level: int = Field(description="1 = section, 2 = subsection...")
    kind: str = Field(description="abstract, introduction, method, results... or other")
    page: int
    line: int


class TableEntry(BaseModel):
    table_id: str
    number: str | None
    caption: str
    page: int
    line: int | None = Field(description="first flow line of the table body")


class EquationEntry(BaseModel):
    equation_id: str
    label: str | None = Field(description="equation number as printed")
    text: str
    page: int | None
    line: int | None


class PaperInfo(PaperRow):
    abstract: str
    doi: str | None
    arxiv: str | None
    tags: list[str]
    collections: list[str]
    outline: list[OutlineEntry] = Field(description="headings in order, with page and line")
    tables: list[TableEntry]
    equations: list[EquationEntry]
    truncated: bool = Field(description="true when lists or texts were cut to fit the budget")
    link: str | None = Field(default=None, description="the web reader, when mcp.reader_url is set")


class LineOut(BaseModel):
    id: str = Field(description="line id 'page:line', as cited everywhere, e.g. '3:12'")
    page: int
    line: int
    text: str = Field(description="the line's exact text")


class Cursor(BaseModel):
    """read_lines' arguments for the next window: send them back as they are."""

    paper_id: str
    page: int
    first_line: int


class LinesResult(BaseModel):
    paper_id: str
    title: str
    page: int
    lines: list[LineOut]
    next: Cursor | None = Field(description="where to continue reading: read_lines with these "
                                "arguments as they are; null at the end of the paper")
    pages: int = Field(description="pages in the paper")


class LocateOut(BaseModel):
    paper_id: str
    found: bool
    passage: Passage | None = Field(description="where the quote is; null when not found")
    score: float = Field(description="match score in [0, 1]")
    method: str = Field(description="exact, normalized, fuzzy, or none")
    reasons: list[str] = Field(description="why not found, or notes on the match")
    nearest: Passage | None = Field(description="when not found: the paper's passage "
                                    "nearest to the quote, for comparison")


class VerifyOut(BaseModel):
    paper_id: str
    claim: str
    found: bool = Field(description="code found the cited text in the paper")
    support: Literal["supported", "contradicted", "not_enough", "unchecked"]
    support_by: str = Field(description="'code', or 'checker:<model>' when the judge ran")
    support_reason: str
    code_support: str = Field(description="the verdict of the code checks alone")
    verified: bool = Field(description="found AND supported")
    judged: bool = Field(description="whether the checker model was asked")
    passage: Passage | None
    reasons: list[str]
    notes: list[str]


class Exported(BaseModel):
    format: str = Field(description="the export format's name, e.g. 'bibtex'")
    media_type: str
    count: int = Field(description="works written")
    text: str = Field(description="the export (cut to the result limit when longer)")
    complete: bool = Field(description="false when the text was cut")


class Added(BaseModel):
    status: Literal["added", "exists"]
    paper_id: str
    title: str
    pages: int
    version_of: str | None = Field(description="the stored paper this is a new version of")


class CheckItem(BaseModel):
    kind: str = Field(description="the check's name, e.g. 'citation_without_entry'")
    severity: Literal["high", "medium", "low"]
    aspect: str = Field(description="soundness, citations, presentation, integrity, "
                        "anonymity or venue")
    message: str = Field(description="what is wrong, in one sentence")
    fix: str = Field(description="a suggested fix; empty when none is obvious")
    passage: Passage | None = Field(description="page and lines in the paper with the paper's "
                                    "text there; null for a finding about the whole paper")


class CheckOut(BaseModel):
    paper_id: str
    title: str
    venue: str | None = Field(description="the venue whose requirements were checked")
    anonymous: bool = Field(description="whether double-blind checks ran")
    counts: dict[str, int] = Field(description="findings per severity (all of them)")
    findings: list[CheckItem] = Field(description="most severe first")
    notes: list[str] = Field(description="what was not checked and why")
    truncated: bool = Field(description="true when findings were left out to fit the budget "
                            "(the least severe go first)")


class JobOut(BaseModel):
    job_id: str
    kind: str
    status: Literal["queued", "running", "completed", "failed", "cancelled"]
    paper_id: str | None
    error: str | None
    steps_done: list[str] = Field(description="workflow steps finished so far, in order")
    formats: list[str] = Field(description="report formats ready for get_report")
    recommendation: str | None = Field(
        default=None, description="a finished review's recommendation with its "
        "contradicts-the-scores flag, or why there is none (too little evidence)")


class ReportOut(BaseModel):
    job_id: str
    format: Literal["md", "json", "html"]
    text: str
    truncated: bool


class Citation(BaseModel):
    evidence_id: str
    verified: bool
    status: str
    passage: Passage | None


class Sentence(BaseModel):
    text: str
    citations: list[Citation]


class AnswerOut(BaseModel):
    job_id: str
    status: str = Field(description="'answered', 'insufficient_evidence'..., or the job's "
                        "status while it still runs")
    sentences: list[Sentence] = Field(description="each sentence with the passages it cites")
    error: str | None = None
