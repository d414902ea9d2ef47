"""Domain data -> the tools' result models, each text cut to the result budget, and the
short text rendering every tool result carries next to its structured form."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcp.types import CallToolResult, TextContent
from pydantic import BaseModel

from papermind.mcp.results import (
    CheckItem,
    CheckOut,
    EquationEntry,
    Hit,
    OutlineEntry,
    PaperInfo,
    PaperRow,
    Passage,
    TableEntry,
    cut,
)

if TYPE_CHECKING:
    from papermind.domain import Anchor, Paper, SearchHit
    from papermind.domain.check import CheckReport
    from papermind.library.papers import PaperRecord
    from papermind.mcp.runtime import Runtime

MAX_AUTHORS = 10
MAX_ENTRIES = 200
"""Outline headings, tables and equations listed at most (each list)."""
EQUATION_CHARS = 200
FINDING_CHARS = 400
"""The paper's text shown with one check finding, at most."""


def reply(result: BaseModel, text: str) -> CallToolResult:
    """A tool result: the structured model and its short text rendering."""
    return CallToolResult(content=[TextContent(type="text", text=text)],
                          structured_content=result.model_dump(mode="json"))


def passage(rt: Runtime, anchor: Anchor, text: str, limit: int, paper_id: str = "") -> Passage:
    pid = anchor.paper_id or paper_id
    return Passage(paper_id=pid, page=anchor.page, line_start=anchor.line_start,
                   line_end=anchor.line_end,
                   page_end=anchor.page_end if anchor.page_end != anchor.page else None,
                   text=cut(text, limit), link=rt.link(anchor, pid))


def hit(rt: Runtime, found: SearchHit, title: str, limit: int) -> Hit | None:
    if found.anchor is None:
        return None
    return Hit(**passage(rt, found.anchor, found.text, limit, found.paper_id).model_dump(),
               score=round(found.score, 6), title=title, section=found.section)


def row(record: PaperRecord) -> PaperRow:
    return PaperRow(paper_id=record.id, title=cut(record.title or record.source_name, 300),
                    authors=[cut(a, 100) for a in record.authors[:MAX_AUTHORS]], year=record.year, pages=record.pages,
                    source_type=record.source_type, added_at=record.added_at.isoformat())


def paper_info(rt: Runtime, record: PaperRecord, paper: Paper,
               labels: dict[str, list[str]]) -> PaperInfo:
    """Metadata, outline, tables and equations of a stored paper, within the budget."""
    outline = [OutlineEntry(section_id=s.id, number=s.number, title=cut(s.title, 200),
                            level=s.level, kind=s.kind, page=s.page, line=s.line)
               for s in paper.sections]
    tables = [TableEntry(table_id=t.id, number=t.number, caption=cut(t.caption, 300),
                         page=t.page, line=t.lines[0].line if t.lines else None)
              for t in paper.tables]
    equations = [EquationEntry(equation_id=e.id, label=e.label, text=cut(e.text, EQUATION_CHARS),
                               page=e.first.page if e.first else None,
                               line=e.first.line if e.first else None)
                 for e in paper.equations]
    truncated = max(len(outline), len(tables), len(equations)) > MAX_ENTRIES
    abstract = cut(paper.abstract, min(4000, rt.limit // 4))
    base = rt.settings.mcp.reader_url
    info = PaperInfo(**row(record).model_dump(), abstract=abstract, doi=paper.doi,
                     arxiv=paper.arxiv, tags=labels.get("tags", []),
                     collections=labels.get("collections", []), outline=outline[:MAX_ENTRIES],
                     tables=tables[:MAX_ENTRIES], equations=equations[:MAX_ENTRIES],
                     truncated=truncated or abstract != paper.abstract,
                     link=f"{base.rstrip('/')}/papers/{paper.id}" if base else None)
    return fit(info, rt.limit)


def fit(info: PaperInfo, limit: int) -> PaperInfo:
    """``info`` with its longest list halved until its JSON fits in ``limit`` characters."""
    lists = ("equations", "tables", "outline")
    while len(info.model_dump_json()) > limit:
        name = max(lists, key=lambda n: len(getattr(info, n)))
        items = getattr(info, name)
        if not items:
            break
        info = info.model_copy(update={name: items[:len(items) // 2], "truncated": True})
    return info


def where(p: Passage) -> str:
    """'p. 3, l. 12-15' (or across pages) of a passage."""
    if p.page_end is not None:
        return f"p. {p.page}, l. {p.line_start} - p. {p.page_end}, l. {p.line_end}"
    return f"p. {p.page}, l. {p.line_start}" + (
        f"-{p.line_end}" if p.line_end != p.line_start else "")


def outline_text(info: PaperInfo) -> str:
    head = f"{info.title} ({info.year or 'n.d.'}), {info.pages} pages, id {info.paper_id[:12]}"
    sections = [f"{'  ' * (s.level - 1)}{(s.number + ' ') if s.number else ''}{s.title} "
                f"(p. {s.page}, l. {s.line})" for s in info.outline]
    extra = [f"{len(info.tables)} tables, {len(info.equations)} equations"]
    return "\n".join([head, *sections, *extra])


def check_out(rt: Runtime, report: CheckReport) -> CheckOut:
    """A check report within the budget: each finding's text cut, then the least severe
    findings left out until the whole fits."""
    items = [CheckItem(kind=f.kind, severity=f.severity, aspect=f.aspect,
                       message=cut(f.message, FINDING_CHARS), fix=cut(f.fix, FINDING_CHARS),
                       passage=None if f.anchor is None else passage(
                           rt, f.anchor, f.text, FINDING_CHARS, report.paper_id))
             for f in report.findings]
    out = CheckOut(paper_id=report.paper_id, title=report.title, venue=report.venue,
                   anonymous=report.anonymous, counts=report.counts(), findings=items,
                   notes=[cut(n, FINDING_CHARS) for n in report.notes], truncated=False)
    while len(out.model_dump_json()) > rt.limit and out.findings:
        out = out.model_copy(update={"findings": out.findings[:len(out.findings) * 3 // 4],
                                     "truncated": True})
    return out


def check_text(out: CheckOut) -> str:
    """One line per finding: severity, where, kind, message."""
    head = (f"{out.title or out.paper_id[:12]}: {sum(out.counts.values())} findings "
            f"({out.counts['high']} high, {out.counts['medium']} medium, {out.counts['low']} low)")
    rows = [f"{f.severity:6} {where(f.passage) if f.passage else '-'}  {f.kind}: {f.message}"
            for f in out.findings]
    more = ["(more findings left out to fit the budget)"] if out.truncated else []
    return "\n".join([head, *rows, *more, *(f"note: {n}" for n in out.notes)])
