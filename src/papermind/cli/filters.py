"""The --tag and --collection filters that list, search, ask and export share."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

import typer

from papermind.cli.context import container

TagFilter = Annotated[list[str] | None, typer.Option(
    "--tag", help="Only papers with this tag; repeatable (all must hold).")]
CollectionFilter = Annotated[list[str] | None, typer.Option(
    "--collection", help="Only papers in this collection (or its sub-collections); repeatable.")]


def selected_papers(ctx: typer.Context, papers: Sequence[str] | None, tags: Sequence[str] | None,
                    collections: Sequence[str] | None, *,
                    newest_only: bool = False) -> list[str] | None:
    """Full paper ids matching --paper, --tag and --collection; None for every paper.

    With ``newest_only`` and no filter, a library holding several versions of a work gives
    the ids of the default (newest) versions, so older ones do not crowd the results.
    """
    catalog = container(ctx).catalog
    if papers or tags or collections:
        return catalog.select(papers=papers or (), tags=tags or (), collections=collections or ())
    if newest_only and (older := catalog.superseded()):
        return [r.id for r in catalog.papers.list() if r.id not in older]
    return None
