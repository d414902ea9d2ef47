"""Tools over the stored library: search, list, outline, exact lines, quotes, claims, the
pre-submission check, add, export.

Each tool is a method: arguments with a described schema (their bounds are the request
limits), one service call in a worker thread, and a result whose texts fit
``mcp.max_result_chars``. ``LibraryTools.TOOLS`` lists them with their MCP annotations."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field

from papermind.errors import InputError
from papermind.mcp import views
from papermind.mcp.errors import tool_errors
from papermind.mcp.results import (
    Added,
    CheckOut,
    Cursor,
    Exported,
    LineOut,
    LinesResult,
    LocateOut,
    PaperInfo,
    PaperList,
    SearchResult,
    VerifyOut,
    cut,
)
from papermind.mcp.runtime import Runtime
from papermind.services.export_formats import format_names
from papermind.services.file_access import allowed_folders, file_inside

PaperId = Annotated[str, Field(min_length=4, max_length=200,
                               description="library id of a paper, or a unique prefix of it")]
Query = Annotated[str, Field(min_length=1, max_length=2000,
                             description="what to look for: a question or keywords")]
Ids = Annotated[list[str] | None, Field(default=None, max_length=100,
                                        description="only these papers (ids or prefixes)")]
Tags = Annotated[list[str] | None, Field(default=None, max_length=20,
                                         description="only papers with all these tags")]
Collection = Annotated[str | None, Field(default=None, max_length=200,
                                         description="only papers in this collection")]
Words = Annotated[str | None, Field(default=None, max_length=500, description="words the "
                                    "title, authors or file name contain")]
Quote = Annotated[str, Field(min_length=1, max_length=4000,
                             description="text of the paper, as exactly as you have it")]
Claim = Annotated[str, Field(min_length=1, max_length=4000, description="the claim to check")]
LineIds = Annotated[str | None, Field(default=None, max_length=200, description="cited line "
                                      "ids, e.g. '3:12-14' or '3:40-4:2'")]
CitedQuote = Annotated[str | None, Field(default=None, max_length=4000, description="a quote "
                                         "of the paper (located, or checked at the cited lines)")]
K = Annotated[int, Field(ge=1, le=50, description="number of passages")]
Limit = Annotated[int, Field(ge=1, le=200, description="papers at most")]
PageNo = Annotated[int, Field(ge=1, le=100_000, description="1-based page")]
FirstLine = Annotated[int, Field(ge=1, le=100_000, description="first line (1-based)")]
LastLine = Annotated[int | None, Field(default=None, ge=1, le=100_000,
                                       description="last line; default: the page's last line")]
Venue = Annotated[str | None, Field(default=None, max_length=40, description="also check this "
                                   "venue's required parts and page limit: neurips, iclr, acl")]
Anonymous = Annotated[bool, Field(description="double-blind: also flag self-identifying "
                                  "citations, acknowledgements, author names, own repositories")]
FilePath = Annotated[str, Field(min_length=1, max_length=4096, description="absolute path of a "
                                ".pdf, .txt or .md file on this machine")]
Format = Annotated[str, Field(min_length=1, max_length=40, description="an export format: "
                             f"{format_names()}")]
READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
MAY_ASK_SOURCES = ToolAnnotations(read_only_hint=True, open_world_hint=True)
"""Read-only, but asks the scholarly sources when scholar.enabled is set."""
ADDS = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True,
                       open_world_hint=False)
ADD_SUFFIXES = (".pdf", ".txt", ".md")
LINE_OVERHEAD = 12
"""Characters a line costs beyond its text in a result (its id and JSON)."""


class LibraryTools:
    def __init__(self, rt: Runtime) -> None:
        self.rt = rt

    @tool_errors
    async def search_library(self, query: Query, k: K = 10, paper_ids: Ids = None,
                             tags: Tags = None, collection: Collection = None
                             ) -> Annotated[CallToolResult, SearchResult]:
        """Search the library for passages (BM25 + dense); each hit has its paper, page,
        lines and text, ready to cite as 'p. X, l. Y-Z'."""
        rt, box = self.rt, self.rt.container

        def run() -> SearchResult:
            selected = box.catalog.select(papers=paper_ids or (), tags=tags or (),
                                          collections=[collection] if collection else ())
            found = box.search.search(query, paper_ids=selected, k=k)
            titles = box.library.titles(h.paper_id for h in found)
            per_hit = max(200, rt.limit // max(1, len(found)))
            hits = [views.hit(rt, h, titles.get(h.paper_id, ""), per_hit) for h in found]
            return SearchResult(query=query, hits=[h for h in hits if h is not None])

        result: SearchResult = await rt.call(run)
        lines = [f"{i}. [{h.paper_id[:12]}] {views.where(h)}: {cut(h.text, 160)}"
                 for i, h in enumerate(result.hits, start=1)]
        return views.reply(result, "\n".join(lines) or "no passage matches")

    @tool_errors
    async def list_papers(self, query: Words = None, tags: Tags = None,
                          collection: Collection = None, limit: Limit = 50
                          ) -> Annotated[CallToolResult, PaperList]:
        """List the library's papers, newest first (older versions hidden)."""
        from papermind.services.browse import find_papers

        records = await self.rt.call(find_papers, self.rt.container, query=query,
                                     tags=tags or (), limit=limit + 1,
                                     collections=[collection] if collection else ())
        result = PaperList(papers=[views.row(r) for r in records[:limit]],
                           more=len(records) > limit)
        text = "\n".join(f"{p.paper_id[:12]}  {p.year or '    '}  {cut(p.title, 120)}"
                         for p in result.papers)
        return views.reply(result, text or "no paper matches")

    @tool_errors
    async def get_paper(self, paper_id: PaperId) -> Annotated[CallToolResult, PaperInfo]:
        """A paper's metadata, abstract, outline (page and line of every heading), tables and
        equations."""
        rt, box = self.rt, self.rt.container

        def run() -> PaperInfo:
            stored = box.library.show(paper_id)
            return views.paper_info(rt, stored.record, stored.paper,
                                    box.catalog.labels_of(stored.record.id))

        info: PaperInfo = await rt.call(run)
        return views.reply(info, views.outline_text(info))

    @tool_errors
    async def read_lines(self, paper_id: PaperId, page: PageNo, first_line: FirstLine = 1,
                         last_line: LastLine = None) -> Annotated[CallToolResult, LinesResult]:
        """The paper's exact lines with their ids ('page:line'), at most 200 per call; `next`
        says where to continue."""
        from papermind.services.browse import read_lines as read

        box = self.rt.container
        window = await self.rt.call(lambda: read(box.library.show(paper_id).paper, page,
                                                 first_line, last_line))
        lines: list[LineOut] = []
        used = 0
        for ln in window.lines:
            used += len(ln.text) + LINE_OVERHEAD
            if used > self.rt.limit and lines:
                break
            lines.append(LineOut(id=f"{ln.page}:{ln.n}", page=ln.page, line=ln.n, text=ln.text))
        pid = window.paper.id
        cursor = (Cursor(paper_id=pid, page=page, first_line=lines[-1].line + 1)
                  if len(lines) < len(window.lines)
                  else None if window.next_page is None or window.next_line is None
                  else Cursor(paper_id=pid, page=window.next_page, first_line=window.next_line))
        result = LinesResult(paper_id=window.paper.id, title=window.paper.title, page=page,
                             lines=lines, next=cursor, pages=len(window.paper.pages))
        text = "\n".join(f"{ln.id}  {ln.text}" for ln in lines) or f"page {page} has no text lines"
        return views.reply(result, text)

    @tool_errors
    async def locate_quote(self, paper_id: PaperId,
                           quote: Quote) -> Annotated[CallToolResult, LocateOut]:
        """Find where a paper says a quote: page and lines with the paper's exact text, or
        'not found' with the paper's nearest passage."""
        from papermind.services.browse import locate_or_nearest

        rt = self.rt
        located, near = await rt.call(locate_or_nearest, rt.container, paper_id, quote)
        e = located.evidence
        found = None if e.anchor is None else views.passage(rt, e.anchor, e.matched_text,
                                                            rt.limit // 2, located.paper.id)
        nearest = None if near is None or near.anchor is None else views.passage(
            rt, near.anchor, near.text, rt.limit // 2, near.paper_id)
        result = LocateOut(paper_id=located.paper.id, found=found is not None, passage=found,
                           score=round(e.score, 4), method=e.method,
                           reasons=[*e.reasons, *e.notes], nearest=nearest)
        if found is not None:
            text = f"found at {views.where(found)} ({e.method}, score {e.score:.2f}): {found.text}"
        else:
            text = "not found" + (f"; nearest text at {views.where(nearest)}: "
                                  f"{cut(nearest.text, 300)}" if nearest else "")
        return views.reply(result, text)

    @tool_errors
    async def verify_claim(self, paper_id: PaperId, claim: Claim, lines: LineIds = None,
                           quote: CitedQuote = None) -> Annotated[CallToolResult, VerifyOut]:
        """Does the paper back this claim? Two verdicts: found (the cited lines or the quote
        are in the paper) and support (code checks of numbers, names, negation, direction;
        then the checker model, when an endpoint is configured)."""
        from papermind.services.verification import verify

        rt, box = self.rt, self.rt.container
        gateway = box.gateway if rt.settings.llm.endpoints else None
        result = await rt.call(lambda: verify(box.library.show(paper_id).paper, claim,
                                              lines=lines or "", quote=quote or "",
                                              grounder=box.grounder, gateway=gateway))
        e = result.evidence
        out = VerifyOut(paper_id=result.paper.id, claim=claim, found=e.found,
                        support=e.support.verdict, support_by=e.support.by,
                        support_reason=e.support.reason, code_support=result.code.verdict,
                        verified=e.verified, judged=result.judged,
                        passage=None if e.anchor is None else views.passage(
                            rt, e.anchor, e.matched_text, rt.limit // 2, result.paper.id),
                        reasons=list(e.reasons), notes=[*e.notes, *result.notes])
        where = views.where(out.passage) if out.passage else "not in the paper"
        text = (f"{'verified' if out.verified else 'NOT verified'}: found {where}; support "
                f"{out.support.replace('_', ' ')} ({out.support_by or 'unchecked'})"
                + (f": {out.support_reason}" if out.support_reason else ""))
        return views.reply(out, text)

    @tool_errors
    async def check_paper(self, paper_id: PaperId, venue: Venue = None,
                          anonymous: Anonymous = False) -> Annotated[CallToolResult, CheckOut]:
        """The model-free pre-submission check of a stored paper: numbers vs tables,
        citations and bibliography, references to tables/figures/sections, instructions to
        reviewers, acronyms (anonymity and venue on request); each finding with its page,
        lines and the paper's text there. The bibliography is also checked against the
        scholarly sources only when scholar.enabled is set."""
        from papermind.services.checking import scholarly_check
        from papermind.services.paper_checks import check_stored

        rt, box = self.rt, self.rt.container
        report = await rt.call(lambda: check_stored(
            box.library.show(paper_id).paper, venue=venue, anonymous=anonymous,
            references=scholarly_check(box, online=False)))
        out = views.check_out(rt, report)
        return views.reply(out, views.check_text(out))

    @tool_errors
    async def add_paper(self, path_or_identifier: FilePath) -> Annotated[CallToolResult, Added]:
        """Add one paper file to the library (as `papermind add` would); returns what was
        stored (id, title, pages), never the file's content."""
        path = Path(path_or_identifier).expanduser()
        if path.suffix.lower() not in ADD_SUFFIXES:
            raise InputError("add_paper takes the path of a .pdf, .txt or .md file "
                             "(fetching by DOI or arXiv id is not available yet)")
        if not path.is_absolute():
            raise InputError("give an absolute path (the server's working folder is not yours)")
        settings = self.rt.settings
        path = file_inside(path, allowed_folders(settings.mcp.add_folders, settings.home_dir),
                           ADD_SUFFIXES)
        box = self.rt.container
        added = await self.rt.call(box.library.add_file, path)
        if added.status == "failed" or not added.paper_id:
            raise InputError(added.reason or f"{path.name} could not be added")
        record = await self.rt.call(box.papers.record, added.paper_id)
        out = Added(status=added.status, paper_id=added.paper_id, title=record.title,
                    pages=record.pages, version_of=added.version_of)
        return views.reply(out, f"{out.status}: {out.paper_id[:12]} {cut(out.title, 200)} "
                                f"({out.pages} pages)")

    @tool_errors
    async def export_citations(self, format: Format, paper_ids: Ids = None, tags: Tags = None,
                               collection: Collection = None
                               ) -> Annotated[CallToolResult, Exported]:
        """The library's (or the selected papers') bibliographic records in an export format,
        as `papermind export --format` writes them."""
        box = self.rt.container
        done = await self.rt.call(box.exports.export, format, papers=paper_ids or (),
                                  tags=tags or (), collections=[collection] if collection else ())
        text = cut(done.text, self.rt.limit)
        out = Exported(format=done.format.name, media_type=done.format.media_type,
                       count=len(done.works), text=text, complete=text == done.text)
        return views.reply(out, text or f"no paper to export as {done.format.label}")

    TOOLS = {search_library: READ_ONLY, list_papers: READ_ONLY, get_paper: READ_ONLY,
             read_lines: READ_ONLY, locate_quote: READ_ONLY, verify_claim: READ_ONLY,
             check_paper: MAY_ASK_SOURCES, add_paper: ADDS, export_citations: READ_ONLY}
    """Each tool (a method) and its MCP annotations."""

