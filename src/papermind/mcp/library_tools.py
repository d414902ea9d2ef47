"""Tools over the stored library: search, list, outline, exact lines, quotes, claims, add.

Each tool: arguments with a described schema (their bounds are the request limits), one
service call in a worker thread, and a result whose texts fit ``mcp.max_result_chars``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field

from papermind.errors import InputError
from papermind.mcp import views
from papermind.mcp.errors import tool_errors
from papermind.mcp.results import (
    Added,
    Cursor,
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
Quote = Annotated[str, Field(min_length=1, max_length=4000,
                             description="text of the paper, as exactly as you have it")]
READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
ADD_SUFFIXES = (".pdf", ".txt", ".md")


def register(server: MCPServer, rt: Runtime) -> None:
    """Add the library tools to ``server``."""

    @server.tool(annotations=READ_ONLY)
    @tool_errors
    async def search_library(query: Query, k: Annotated[int, Field(ge=1, le=50, description="number of passages")] = 10,
                             paper_ids: Ids = None, tags: Tags = None,
                             collection: Collection = None
                             ) -> Annotated[CallToolResult, SearchResult]:
        """Search the library for passages (BM25 + dense); each hit has its paper, page,
        lines and text, ready to cite as 'p. X, l. Y-Z'."""
        box = rt.container

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

    @server.tool(annotations=READ_ONLY)
    @tool_errors
    async def list_papers(query: Annotated[str | None, Field(
                              default=None, max_length=500,
                              description="words the title, authors or file name contain")] = None,
                          tags: Tags = None, collection: Collection = None,
                          limit: Annotated[int, Field(ge=1, le=200, description="papers at most")] = 50
                          ) -> Annotated[CallToolResult, PaperList]:
        """List the library's papers, newest first (older versions hidden)."""
        from papermind.services.browse import find_papers

        records = await rt.call(find_papers, rt.container, query=query, tags=tags or (),
                                collections=[collection] if collection else (), limit=limit + 1)
        result = PaperList(papers=[views.row(r) for r in records[:limit]],
                           more=len(records) > limit)
        text = "\n".join(f"{p.paper_id[:12]}  {p.year or '    '}  {cut(p.title, 120)}"
                         for p in result.papers)
        return views.reply(result, text or "no paper matches")

    @server.tool(annotations=READ_ONLY)
    @tool_errors
    async def get_paper(paper_id: PaperId) -> Annotated[CallToolResult, PaperInfo]:
        """A paper's metadata, abstract, outline (page and line of every heading), tables and
        equations."""
        box = rt.container

        def run() -> PaperInfo:
            stored = box.library.show(paper_id)
            return views.paper_info(rt, stored.record, stored.paper,
                                    box.catalog.labels_of(stored.record.id))

        info: PaperInfo = await rt.call(run)
        return views.reply(info, views.outline_text(info))

    @server.tool(annotations=READ_ONLY)
    @tool_errors
    async def read_lines(paper_id: PaperId, page: Annotated[int, Field(ge=1, le=100_000,
                                                                    description="1-based page")],
                         first_line: Annotated[int, Field(ge=1, le=100_000,
                                                          description="first line (1-based)")] = 1,
                         last_line: Annotated[int | None, Field(
                             default=None, ge=1, le=100_000,
                             description="default: the page's last line")] = None
                         ) -> Annotated[CallToolResult, LinesResult]:
        """The paper's exact lines with their ids ('page:line'), at most 200 per call; `next`
        says where to continue."""
        from papermind.services.browse import read_lines as read

        box = rt.container
        window = await rt.call(lambda: read(box.library.show(paper_id).paper, page, first_line,
                                            last_line))
        lines: list[LineOut] = []
        used = 0
        for ln in window.lines:
            used += len(ln.text) + 12
            if used > rt.limit and lines:
                break
            lines.append(LineOut(id=f"{ln.page}:{ln.n}", page=ln.page, line=ln.n, text=ln.text))
        cursor = (Cursor(page=page, first_line=lines[-1].line + 1) if len(lines) < len(window.lines)
                  else Cursor(page=window.next_page, first_line=window.next_line)
                  if window.next_page is not None and window.next_line is not None else None)
        result = LinesResult(paper_id=window.paper.id, title=window.paper.title, page=page,
                             lines=lines, next=cursor, pages=len(window.paper.pages))
        text = "\n".join(f"{ln.id}  {ln.text}" for ln in lines) or f"page {page} has no text lines"
        return views.reply(result, text)

    @server.tool(annotations=READ_ONLY)
    @tool_errors
    async def locate_quote(paper_id: PaperId, quote: Quote) -> Annotated[CallToolResult, LocateOut]:
        """Find where a paper says a quote: page and lines with the paper's exact text, or
        'not found' with the paper's nearest passage."""
        from papermind.services.browse import locate_or_nearest

        located, near = await rt.call(locate_or_nearest, rt.container, paper_id, quote)
        e = located.evidence
        text_limit = rt.limit // 2
        found = None if e.anchor is None else views.passage(rt, e.anchor, e.matched_text,
                                                            text_limit, located.paper.id)
        nearest = None if near is None or near.anchor is None else views.passage(
            rt, near.anchor, near.text, text_limit, near.paper_id)
        result = LocateOut(paper_id=located.paper.id, found=found is not None, passage=found,
                           score=round(e.score, 4), method=e.method,
                           reasons=[*e.reasons, *e.notes], nearest=nearest)
        if found is not None:
            text = f"found at {views.where(found)} ({e.method}, score {e.score:.2f}): {found.text}"
        else:
            text = "not found" + (f"; nearest text at {views.where(nearest)}: "
                                  f"{cut(nearest.text, 300)}" if nearest else "")
        return views.reply(result, text)

    @server.tool(annotations=READ_ONLY)
    @tool_errors
    async def verify_claim(paper_id: PaperId,
                           claim: Annotated[str, Field(min_length=1, max_length=4000,
                                                       description="the claim to check")],
                           lines: Annotated[str | None, Field(
                               default=None, max_length=200,
                               description="cited line ids, e.g. '3:12-14' or '3:40-4:2'")] = None,
                           quote: Annotated[str | None, Field(
                               default=None, max_length=4000,
                               description="a quote of the paper (located, or checked at the "
                                           "cited lines)")] = None
                           ) -> Annotated[CallToolResult, VerifyOut]:
        """Does the paper back this claim? Two verdicts: found (the cited lines or the quote
        are in the paper) and support (code checks of numbers, names, negation, direction;
        then the checker model, when one is configured)."""
        from papermind.services.verification import verify

        box = rt.container
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

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False,
                                             idempotent_hint=True, open_world_hint=False))
    @tool_errors
    async def add_paper(path_or_identifier: Annotated[str, Field(
            min_length=1, max_length=4096,
            description="absolute path of a .pdf, .txt or .md file on this machine")]
                        ) -> Annotated[CallToolResult, Added]:
        """Add one paper file to the library (as `papermind add` would); returns what was
        stored (id, title, pages), never the file's content."""
        path = Path(path_or_identifier).expanduser()
        if path.suffix.lower() not in ADD_SUFFIXES:
            raise InputError("add_paper takes the path of a .pdf, .txt or .md file "
                             "(fetching by DOI or arXiv id is not available yet)")
        if not path.is_absolute():
            raise InputError("give an absolute path (the server's working folder is not yours)")
        box = rt.container
        added = await rt.call(box.library.add_file, path)
        if added.status == "failed" or not added.paper_id:
            raise InputError(added.reason or f"{path.name} could not be added")
        record = await rt.call(box.papers.record, added.paper_id)
        out = Added(status=added.status, paper_id=added.paper_id, title=record.title,
                    pages=record.pages, version_of=added.version_of)
        return views.reply(out, f"{out.status}: {out.paper_id[:12]} {cut(out.title, 200)} "
                                f"({out.pages} pages)")
