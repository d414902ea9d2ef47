"""The LLM reranker: asks the 'reranker' role to score first-stage hits (one call per search)."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel, Field

from papermind.domain import SearchHit
from papermind.library.rerank import reorder
from papermind.llm import PromptTemplate, fence_untrusted
from papermind.services.loops import run_loop

PROMPT = PromptTemplate.load(Path(__file__).parent / "prompts" / "rerank.md",
                             {"query", "passages"})
PASSAGE_CHARS = 1200


class PassageScore(BaseModel):
    number: int = Field(description="the passage number in square brackets")
    score: float = Field(ge=0, le=10, description="0 = unrelated, 10 = directly answers")


class PassageScores(BaseModel):
    """Relevance of each passage to the query."""

    scores: list[PassageScore] = Field(description="one entry per passage")


class StructuredModel(Protocol):
    """What the reranker needs from the LLM gateway."""

    async def structured(self, role: str, messages: Any, schema: Any, *,
                         node: str | None = None) -> Any:
        ...


class LLMReranker:
    """Scores hits with the 'reranker' role; passages it leaves out keep their order, last."""

    def __init__(self, gateway: StructuredModel, role: str = "reranker") -> None:
        self.gateway = gateway
        self.role = role

    async def arerank(self, query: str, hits: Sequence[SearchHit], k: int) -> list[SearchHit]:
        if not hits:
            return []
        passages = "\n\n".join(f"[{i}] ({h.section or 'no section'})\n{h.text[:PASSAGE_CHARS]}"
                               for i, h in enumerate(hits, start=1))
        messages = PROMPT.render(query=query, passages=fence_untrusted(passages, "PASSAGES"))
        reply: PassageScores = await self.gateway.structured(self.role, messages, PassageScores,
                                                             node="rerank")
        given = {s.number: s.score for s in reply.scores if 1 <= s.number <= len(hits)}
        # unscored passages sink below scored ones but keep first-stage order among themselves
        scores = [given.get(i, -1.0) - i * 1e-6 for i in range(1, len(hits) + 1)]
        ranked = reorder(hits, scores, k)
        return [h.model_copy(update={"score": max(h.score, 0.0)}) for h in ranked]

    def rerank(self, query: str, hits: Sequence[SearchHit], k: int) -> list[SearchHit]:
        """Synchronous form (runs the call in a private event loop when one is running)."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return run_loop(self.arerank(query, hits, k))
        with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(run_loop, self.arerank(query, hits, k)).result()
