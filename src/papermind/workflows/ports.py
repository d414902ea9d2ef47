"""What workflows need from the rest of the system, as Protocols.

Services plug real implementations in (grounding engine, hybrid search, paper store);
tests plug fakes or the real grounding engine. Workflows never import library or ingest.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from papermind.domain import Evidence, Paper, Reference, SearchHit, SearchMode, SectionKind


class Grounder(Protocol):
    """Turns a model-proposed quote into checked Evidence for one paper."""

    def ground(self, paper: Paper, quote: str, claim: str | None = None) -> Evidence:
        """Locate ``quote`` in ``paper``; run claim checks when ``claim`` is given."""
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
