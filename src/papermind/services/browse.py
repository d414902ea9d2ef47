"""Reading a stored library piece by piece: papers matching a filter, a window of a page's
numbered lines with a cursor to the next one. The use cases behind the MCP tools
(``papermind mcp``), where every answer must fit a model's token budget."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from papermind.domain import Line, Paper, SearchHit
from papermind.errors import InputError, NotFoundError

if TYPE_CHECKING:
    from papermind.library.papers import PaperRecord
    from papermind.services.container import Container
    from papermind.services.verification import LocateResult

MAX_LINES = 200
"""Lines one window holds at most; a longer request is cut there and gets a cursor."""


@dataclass(frozen=True)
class LineWindow:
    """Lines ``first``..``last`` of one page (flow lines, numbered as in every citation) and
    where the next window starts (None at the paper's end)."""

    paper: Paper
    page: int
    lines: list[Line]
    next_page: int | None
    next_line: int | None


def find_papers(container: Container, *, query: str | None = None, tags: Sequence[str] = (),
                collections: Sequence[str] = (), limit: int = 50) -> list[PaperRecord]:
    """Stored papers, newest first, older versions hidden: those in the tags and collections
    given whose title, authors or file name contain every word of ``query``."""
    selection = container.catalog.select(tags=tags, collections=collections)
    hidden = container.catalog.superseded()
    words = (query or "").casefold().split()
    found = []
    for record in container.library.list():
        if record.id in hidden or (selection is not None and record.id not in selection):
            continue
        haystack = " ".join([record.title, record.source_name, *record.authors]).casefold()
        if all(word in haystack for word in words):
            found.append(record)
            if len(found) >= limit:
                break
    return found


def read_lines(paper: Paper, page: int, first_line: int = 1, last_line: int | None = None,
               *, max_lines: int = MAX_LINES) -> LineWindow:
    """The flow lines ``first_line``..``last_line`` of ``page`` (at most ``max_lines``),
    with the position of the line after the window: on this page, else the first line of
    the next page that has lines."""
    if not 1 <= page <= len(paper.pages):
        raise NotFoundError(f"page {page} does not exist (the paper has {len(paper.pages)})")
    lines = paper.page(page).lines
    if not lines:
        return LineWindow(paper, page, [], *_next_page(paper, page))
    if first_line > len(lines):
        raise NotFoundError(f"page {page} has {len(lines)} lines, not {first_line}")
    last = len(lines) if last_line is None else last_line
    if first_line < 1 or last < first_line:
        raise InputError(f"no such line range {first_line}-{last} (lines are numbered from 1, "
                         "first_line <= last_line)")
    end = min(last, len(lines), first_line - 1 + max_lines)
    window = lines[first_line - 1:end]
    next_page, next_line = (page, end + 1) if end < len(lines) else _next_page(paper, page)
    return LineWindow(paper, page, window, next_page, next_line)


def _next_page(paper: Paper, page: int) -> tuple[int | None, int | None]:
    """The first line of the first page after ``page`` that has lines; (None, None) at the end."""
    for later in paper.pages[page:]:
        if later.lines:
            return later.number, 1
    return None, None


def locate_or_nearest(container: Container, paper_id: str,
                      quote: str) -> tuple[LocateResult, SearchHit | None]:
    """Where the stored paper says ``quote``; when nowhere, also its passage nearest to the
    quote (the best BM25 hit within the paper), so a caller sees what the paper does say."""
    from papermind.services.verification import locate_in

    result = locate_in(container.library.show(paper_id).paper, quote)
    if result.evidence.anchor is not None:
        return result, None
    hits = container.search.search(quote, paper_ids=[result.paper.id], mode="bm25", k=1)
    return result, (hits[0] if hits else None)
