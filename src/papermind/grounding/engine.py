"""GroundingEngine: the workflows' Grounder, with one index per paper kept warm."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import TypeVar

from papermind.domain import Evidence, Paper, Reference
from papermind.grounding.locator import QuoteLocator
from papermind.grounding.references import ReferenceCheck, ReferenceResolver
from papermind.grounding.verdict import ground_quote


class GroundingEngine:
    """Grounds quotes and cited works for any paper; indexes each paper once (LRU)."""

    def __init__(self, *, max_papers: int = 16) -> None:
        self.max_papers = max_papers
        self._locators: OrderedDict[tuple[int, str], QuoteLocator] = OrderedDict()
        self._resolvers: OrderedDict[tuple[int, str], ReferenceResolver] = OrderedDict()

    def locator(self, paper: Paper) -> QuoteLocator:
        """The (cached) QuoteLocator of ``paper``."""
        return _cached(self._locators, paper, QuoteLocator, self.max_papers)

    def resolver(self, paper: Paper) -> ReferenceResolver:
        """The (cached) ReferenceResolver of ``paper``."""
        return _cached(self._resolvers, paper, ReferenceResolver, self.max_papers)

    def ground(self, paper: Paper, quote: str, claim: str | None = None) -> Evidence:
        """Locate ``quote`` in ``paper``; run claim checks when ``claim`` is given."""
        return ground_quote(self.locator(paper), quote, claim)

    def resolve_reference(self, paper: Paper, cited: str) -> Reference | None:
        """The paper's own bibliography entry for ``cited``, or None."""
        return self.resolver(paper).resolve(cited)

    def check_reference(self, paper: Paper, cited: str) -> ReferenceCheck:
        """Like ``resolve_reference`` with the method and the reasons."""
        return self.resolver(paper).check(cited)


T = TypeVar("T", QuoteLocator, ReferenceResolver)


def _cached(cache: OrderedDict[tuple[int, str], T], paper: Paper, build: Callable[[Paper], T],
            limit: int) -> T:
    """Get or build; the item holds its paper, so ``id(paper)`` stays unique while cached."""
    key = (id(paper), paper.id)
    item = cache.get(key)
    if item is None:
        item = build(paper)
        cache[key] = item
        while len(cache) > limit:
            cache.popitem(last=False)
    else:
        cache.move_to_end(key)
    return item
