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
                    collections: Sequence[str] | None) -> list[str] | None:
    """Full paper ids matching --paper, --tag and --collection; None for every paper."""
    return container(ctx).catalog.select(papers=papers or (), tags=tags or (),
                                         collections=collections or ())
