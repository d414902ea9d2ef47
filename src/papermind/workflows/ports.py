"""What workflows need from the rest of the system, as Protocols.

Services plug real implementations in (grounding engine, hybrid search, paper store);
tests plug fakes or the real grounding engine. Workflows never import library or ingest.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from papermind.domain import (
    Evidence,
    LineRef,
    Paper,
    Reference,
    SearchHit,
    SearchMode,
    SectionKind,
)


class Grounder(Protocol):
    """Turns what a model cites (line ids, optional quote) into checked Evidence for one paper.

    Models see the paper with stable line ids (``numbered_text``) and cite line ranges;
    code materialises the cited text, checks any quote against it, and runs the model-free
    support checks. The support verdict of a checker model is set later with
    ``Evidence.with_support`` (it can never raise a code verdict).
    """

    def numbered_text(self, paper: Paper, lines: Sequence[LineRef] | None = None) -> str:
        """The paper's flow lines (or just ``lines``, in reading order) with their line ids,
        ready to fence into a prompt. Condensed contexts pass the lines they keep, so the ids
        are always the original ones."""
        ...

    def cite(self, paper: Paper, cited: str, quote: str = "", claim: str = "") -> Evidence:
        """Evidence for the line ids ``cited`` (e.g. '3:12-14', '3:40-4:2', '2:5, 2:9').

        Unknown ids give unfound evidence with the reason; a quote outside the cited lines
        but elsewhere in the paper moves the anchor there with a note; with ``claim``, the
        code support checks run (numbers, names, negation, comparison direction)."""
        ...

    def ground(self, paper: Paper, quote: str, claim: str | None = None) -> Evidence:
        """Locate a bare ``quote`` in ``paper`` (no line ids); code checks when ``claim``."""
        ...

    def resolve_reference(self, paper: Paper, cited: str) -> Reference | None:
        """The paper's own bibliography entry for ``cited`` (marker, author-year, title)."""
        ...


class Retriever(Protocol):
    """Hybrid search over the library or some papers."""

    def search(
        self,
        query: str,
        *,
        paper_ids: Sequence[str] | None = None,
        mode: SearchMode = "hybrid",
        k: int = 10,
        section_kinds: Sequence[SectionKind] | None = None,
        year_min: int | None = None,
        year_max: int | None = None,
    ) -> list[SearchHit]:
        ...


class PaperSource(Protocol):
    """Loads stored papers by id."""

    def get(self, paper_id: str) -> Paper:
        ...


ProgressCallback = Callable[[str, dict[str, object]], None]
"""Called as ``progress(node_name, info)`` when a node finishes; used for live progress."""
