"""GroundingEngine: the workflows' Grounder, with one index per paper kept warm."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import TypeVar

from papermind.domain import Evidence, LineRef, Paper, Reference
from papermind.grounding.citing import LineCiter
from papermind.grounding.locator import QuoteLocator
from papermind.grounding.references import ReferenceCheck, ReferenceResolver
from papermind.grounding.support import check_support


class GroundingEngine:
    """Cites line ids, grounds quotes and cited works for any paper; indexes each paper
    once (LRU). Implements ``workflows.ports.Grounder``."""

    def __init__(self, *, max_papers: int = 16) -> None:
        self.max_papers = max_papers
        self._citers: OrderedDict[tuple[int, str], LineCiter] = OrderedDict()
        self._resolvers: OrderedDict[tuple[int, str], ReferenceResolver] = OrderedDict()

    def citer(self, paper: Paper) -> LineCiter:
        """The (cached) LineCiter of ``paper``."""
        return _cached(self._citers, paper, lambda p: LineCiter(QuoteLocator(p)),
                       self.max_papers)

    def locator(self, paper: Paper) -> QuoteLocator:
        """The (cached) QuoteLocator of ``paper``."""
        return self.citer(paper).locator

    def resolver(self, paper: Paper) -> ReferenceResolver:
        """The (cached) ReferenceResolver of ``paper``."""
        return _cached(self._resolvers, paper, ReferenceResolver, self.max_papers)

    def numbered_text(self, paper: Paper, lines: Sequence[LineRef] | None = None) -> str:
        """The paper's flow lines (or just ``lines``) with line ids, for a prompt."""
        return self.citer(paper).numbered_text(None if lines is None else list(lines))

    def cite(self, paper: Paper, cited: str, quote: str = "", claim: str = "") -> Evidence:
        """Evidence for the line ids ``cited``; code support checks when ``claim``."""
        evidence = self.citer(paper).cite(cited, quote)
        return check_support(evidence, claim, paper) if claim.strip() else evidence

    def ground(self, paper: Paper, quote: str, claim: str | None = None) -> Evidence:
        """Locate ``quote`` in ``paper``; code support checks when ``claim`` is given."""
        evidence = self.locator(paper).locate(quote)
        return check_support(evidence, claim, paper) if claim and claim.strip() else evidence

    def resolve_reference(self, paper: Paper, cited: str) -> Reference | None:
        """The paper's own bibliography entry for ``cited``, or None."""
        return self.resolver(paper).resolve(cited)

    def check_reference(self, paper: Paper, cited: str) -> ReferenceCheck:
        """Like ``resolve_reference`` with the method and the reasons."""
        return self.resolver(paper).check(cited)


T = TypeVar("T", LineCiter, ReferenceResolver)


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
