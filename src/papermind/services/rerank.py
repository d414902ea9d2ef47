"""The LLM reranker: one batched call per query asks the 'reranker' role to score the top
fusion candidates (PaperQA2's approach); the role inherits the checker's model.

Bounded: at most ``top`` passages of at most ``passage_chars`` characters each, the role's
output cap, and ``timeout_s`` of wall-clock time. Cached: the gateway's response cache keys
the call by endpoint, model and prompt (the query and every candidate's text), so the same
query over the same candidates costs nothing the second time. The bundled local model is
not a judge of relevance: on it no call is made and the fusion order stands. A failing or
malformed reply keeps the fusion order, with a warning in the result (never an exception).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from papermind.domain import SearchHit
from papermind.errors import ConfigError, ProviderError
from papermind.library.rerank import Reranking, reorder
from papermind.llm import Gateway, PromptTemplate, Usage, fence_untrusted
from papermind.llm.usage import CallRecord, captured_calls, total
from papermind.services.loops import run_loop

log = logging.getLogger(__name__)

PROMPT = PromptTemplate.load(Path(__file__).parent / "prompts" / "rerank.md",
                             {"query", "passages"})
ROLE = "reranker"
NODE = "rerank"


class PassageScore(BaseModel):
    number: int = Field(description="the passage number in square brackets")
    score: float = Field(ge=0, le=10, description="0 = unrelated, 10 = directly answers")


class PassageScores(BaseModel):
    """Relevance of each passage to the query."""

    scores: list[PassageScore] = Field(description="one entry per passage")


class LLMReranker:
    """Scores the top ``top`` hits with the 'reranker' role in one call; passages it leaves
    unscored sink below the scored ones, keeping their fusion order."""

    def __init__(self, gateway: Gateway, role: str = ROLE, *, top: int = 20,
                 passage_chars: int = 1200, timeout_s: float | None = 60.0) -> None:
        self.gateway = gateway
        self.role = role
        self.top = max(1, top)
        self.passage_chars = max(1, passage_chars)
        self.timeout_s = timeout_s

    def bound_to(self, gateway: Gateway) -> LLMReranker:
        """The same reranker on another gateway view (a job's, so its calls count there)."""
        return LLMReranker(gateway, self.role, top=self.top, passage_chars=self.passage_chars,
                           timeout_s=self.timeout_s)

    @property
    def judges(self) -> bool:
        """Whether the role runs on a model that may judge relevance (not the bundled one)."""
        return self.gateway.resolve(self.role).kind.judges

    def prompt(self, query: str, hits: Sequence[SearchHit]) -> Any:
        """The messages for ``hits`` (the first ``top``, each cut to ``passage_chars``)."""
        passages = "\n\n".join(
            f"[{i}] ({h.section or 'no section'})\n{h.text[:self.passage_chars]}"
            for i, h in enumerate(hits[:self.top], start=1))
        return PROMPT.render(query=query, passages=fence_untrusted(passages, "PASSAGES"))

    async def areranking(self, query: str, hits: Sequence[SearchHit], k: int) -> Reranking:
        """The ``k`` best of ``hits`` and the cost; the fusion order when no call is made or
        the call fails."""
        if len(hits) < 2 or not self.judges:
            return Reranking(list(hits[:k]))
        model = self.gateway.model_for(self.role)
        with captured_calls() as calls:
            try:
                call = self.gateway.structured(self.role, self.prompt(query, hits),
                                               PassageScores, node=NODE)
                reply = await asyncio.wait_for(call, self.timeout_s)
                ranked = self._ranked(reply, hits, k)
            except (ProviderError, ConfigError, TimeoutError, ValueError) as err:
                reason = str(err) or type(err).__name__
                warning = f"reranking failed ({reason[:200]}); kept the fusion order"
                log.warning("%s", warning)
                return self._result(list(hits[:k]), model, calls, warning)
        return self._result(ranked, model, calls)

    def _ranked(self, reply: PassageScores, hits: Sequence[SearchHit],
                k: int) -> list[SearchHit]:
        judged = hits[:self.top]
        given = {s.number: s.score for s in reply.scores if 1 <= s.number <= len(judged)}
        if not given:
            raise ValueError("the reply scored none of the passages")
        # unscored passages sink below scored ones but keep first-stage order among themselves
        scores = [given.get(i, -1.0) - i * 1e-6 for i in range(1, len(judged) + 1)]
        ranked = [h.model_copy(update={"score": max(h.score, 0.0)})
                  for h in reorder(judged, scores, len(judged))]
        beyond = [h.model_copy(update={"score": 0.0}) for h in hits[self.top:]]
        return (ranked + beyond)[:k]

    def _result(self, hits: list[SearchHit], model: str, calls: list[CallRecord],
                warning: str = "") -> Reranking:
        """``hits`` with the cost of this reranking's own calls (``calls``, captured in its
        context: a concurrent search on the same gateway does not count here)."""
        used: Usage = total(r for r in calls if r.node == NODE and r.role == self.role)
        return Reranking(hits, model, used.tokens_in, used.tokens_out, used.cost_usd,
                         cached=used.calls > 0 and used.cached_calls == used.calls,
                         warning=warning)

    def reranking(self, query: str, hits: Sequence[SearchHit], k: int) -> Reranking:
        """Synchronous form (runs the call in a private event loop when one is running)."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return run_loop(self.areranking(query, hits, k))
        with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(run_loop, self.areranking(query, hits, k)).result()

    async def arerank(self, query: str, hits: Sequence[SearchHit], k: int) -> list[SearchHit]:
        return (await self.areranking(query, hits, k)).hits

    def rerank(self, query: str, hits: Sequence[SearchHit], k: int) -> list[SearchHit]:
        """``library.rerank.Reranker``: the hits only."""
        return self.reranking(query, hits, k).hits

