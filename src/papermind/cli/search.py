"""Search commands: search, reindex."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from papermind.cli.context import container, state, wants_json
from papermind.cli.filters import CollectionFilter, TagFilter, selected_papers
from papermind.cli.options import JsonFlag
from papermind.errors import InputError

if TYPE_CHECKING:  # the domain (pydantic) and search stack load when a command runs
    from rich.progress import Progress

    from papermind.domain import SearchHit
    from papermind.library.embedding_cache import EmbedProgress
    from papermind.services.search import Reranking

SEARCH_MODES = ("bm25", "dense", "hybrid")
"""domain.SearchMode, spelled out so --help imports no pydantic (a test keeps them equal)."""
SECTION_KINDS: tuple[str, ...] = (
    "abstract", "introduction", "related_work", "method", "experiments", "results",
    "discussion", "conclusion", "references", "appendix", "acknowledgements", "other")
"""domain.SectionKind, spelled out for the same reason (and kept equal by the same test)."""
SNIPPET_CHARS = 240


def search(
    ctx: typer.Context,
    query: Annotated[str, typer.Argument(help="What to look for (a question or keywords).")],
    paper: Annotated[list[str] | None, typer.Option(
        "--paper", help="Only this paper (id or unique id prefix); repeatable.")] = None,
    k: Annotated[int | None, typer.Option("--k", min=1, max=200,
                                          help="Number of results.")] = None,
    mode: Annotated[str, typer.Option("--mode", help="bm25, dense or hybrid.")] = "hybrid",
    section: Annotated[list[str] | None, typer.Option(
        "--section", help=f"Only these section kinds ({', '.join(SECTION_KINDS)}); "
                          "repeatable.")] = None,
    year_min: Annotated[int | None, typer.Option("--year-min", help="Papers from this year on.")]
    = None,
    year_max: Annotated[int | None, typer.Option("--year-max", help="Papers up to this year.")]
    = None,
    tag: TagFilter = None,
    collection: CollectionFilter = None,
    as_json: JsonFlag = False,
) -> None:
    """Search the library (or some papers) for passages; each hit has page and lines."""
    if mode not in SEARCH_MODES:
        raise InputError(f"unknown mode {mode!r} (use bm25, dense or hybrid)")
    bad = [s for s in section or [] if s not in SECTION_KINDS]
    if bad:
        raise InputError(f"unknown section kind {bad[0]!r} (use {', '.join(SECTION_KINDS)})")
    box = container(ctx)
    found = box.search.search_reranked(
        query, paper_ids=selected_papers(ctx, paper, tag, collection), mode=mode, k=k or box.settings.search.default_k,  # type: ignore[arg-type]
        section_kinds=section or None, year_min=year_min, year_max=year_max)  # type: ignore[arg-type]
    hits = found.hits
    if found.model:  # on stderr: the JSON on stdout keeps its shape
        state(ctx).err.print(rerank_note(found))
    titles = box.search.titles(hits)
    if wants_json(ctx, as_json):
        state(ctx).emit_json([hit_json(h, titles.get(h.paper_id, "")) for h in hits])
    elif not hits:
        state(ctx).console.print("no good match")
    else:
        state(ctx).console.print(hits_table(hits, titles))


def reindex(
    ctx: typer.Context,
    as_json: JsonFlag = False,
) -> None:
    """Rebuild the search index of every paper (cached embeddings are reused)."""
    with embedding_bar(state(ctx).err) as on_embed:
        result = container(ctx).search.reindex(on_embed=on_embed)
    payload = {"papers": result.papers, "chunks": result.chunks, "embedded": result.embedded}
    if wants_json(ctx, as_json):
        state(ctx).emit_json(payload)
    else:
        state(ctx).console.print(f"reindexed {result.papers} papers: {result.chunks} chunks, "
                                 f"{result.embedded} newly embedded")


def rerank_note(found: Reranking) -> str:
    """One line on what the LLM reranker did and cost (or why the fusion order stands)."""
    if found.warning:
        return f"warning: {found.warning}"
    if found.cached:
        return f"reranked by {found.model} (cached: no tokens)"
    return (f"reranked by {found.model}: {found.tokens_in} tokens in, {found.tokens_out} out"
            f", ${found.cost_usd:.4f}")


def hit_json(hit: SearchHit, title: str = "") -> dict[str, Any]:
    anchor = hit.anchor
    return {"paper_id": hit.paper_id, "title": title, "chunk_id": hit.chunk_id,
            "score": round(hit.score, 6),
            "text": hit.text, "section": hit.section, "section_kind": hit.section_kind,
            "anchor": None if anchor is None else {
                "page": anchor.page, "line_start": anchor.line_start,
                "line_end": anchor.line_end, "page_end": anchor.page_end}}


def hits_table(hits: list[SearchHit], titles: dict[str, str]) -> Table:
    """Rank, score, the paper (title and the id prefix that opens it), where, the text."""
    table = Table(show_lines=True)
    for column in ("#", "score", "paper", "where", "text"):
        table.add_column(column, overflow="fold")
    for rank, hit in enumerate(hits, start=1):
        text = hit.text if len(hit.text) <= SNIPPET_CHARS else hit.text[:SNIPPET_CHARS] + "..."
        where = (hit.section or "-") + ("\n" + hit.anchor.label() if hit.anchor else "")
        title = titles.get(hit.paper_id, "")
        paper = f"{escape(_short(title))}\n{hit.paper_id[:12]}" if title else hit.paper_id[:12]
        table.add_row(str(rank), f"{hit.score:.4f}", paper, where, escape(text))
    return table


def _short(title: str, limit: int = 60) -> str:
    return title if len(title) <= limit else title[:limit - 3].rstrip() + "..."


@contextmanager
def embedding_bar(console: Console) -> Iterator[EmbedProgress]:
    """A Rich progress bar on stderr for embedding batches (shown once work starts)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar: Progress | None = None
    task = None
    finished = True

    def on_embed(done: int, total: int) -> None:
        nonlocal bar, task, finished
        if bar is None:
            bar = Progress(TextColumn("[bold]embedding"), BarColumn(), MofNCompleteColumn(),
                           TimeElapsedColumn(), console=console, transient=True)
            bar.start()
            task = bar.add_task("", total=total)
        assert task is not None
        if finished:  # a new paper's batches begin
            bar.reset(task, total=total)
        bar.update(task, completed=done, total=total)
        finished = done >= total

    try:
        yield on_embed
    finally:
        if bar is not None:
            bar.stop()


def register(app: typer.Typer) -> None:
    app.command("search")(search)
    app.command("reindex")(reindex)
