"""The Grounder the workflows use: the deterministic grounding engine, one index per paper."""

from __future__ import annotations

import threading
from collections import OrderedDict

from papermind.domain import Evidence, Paper, Reference
from papermind.grounding import QuoteLocator, ReferenceResolver, ground_quote


class GroundingAdapter:
    """Implements ``workflows.ports.Grounder``; keeps the last few papers' indexes warm."""

    def __init__(self, max_papers: int = 16) -> None:
        self._max = max_papers
        self._locators: OrderedDict[str, tuple[QuoteLocator, ReferenceResolver]] = OrderedDict()
        self._lock = threading.Lock()

    def _engines(self, paper: Paper) -> tuple[QuoteLocator, ReferenceResolver]:
        with self._lock:
            if paper.id in self._locators:
                self._locators.move_to_end(paper.id)
                return self._locators[paper.id]
            engines = (QuoteLocator(paper), ReferenceResolver(paper))
            self._locators[paper.id] = engines
            while len(self._locators) > self._max:
                self._locators.popitem(last=False)
            return engines

    def ground(self, paper: Paper, quote: str, claim: str | None = None) -> Evidence:
        """Locate ``quote`` in ``paper`` (and check ``claim`` against it when given)."""
        locator, _ = self._engines(paper)
        evidence = ground_quote(locator, quote, claim)
        if evidence.anchor is not None and evidence.anchor.paper_id != paper.id:
            anchor = evidence.anchor.model_copy(update={"paper_id": paper.id})
            evidence = evidence.model_copy(update={"anchor": anchor})
        return evidence

    def resolve_reference(self, paper: Paper, cited: str) -> Reference | None:
        """The paper's own bibliography entry for ``cited``, or None."""
        _, resolver = self._engines(paper)
        return resolver.resolve(cited)
