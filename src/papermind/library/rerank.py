"""The reranking stage: an interface, its result with cost, and a cross-encoder hook for a
user-installed model.

The LLM reranker (through the provider layer) lives in ``services/rerank.py``. No
cross-encoder ships offline, so ``CrossEncoderReranker`` takes either a scoring function or
the paths of an ONNX sequence-classification model and its tokenizer that the user installed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from papermind.domain import SearchHit
from papermind.errors import ConfigError

PairScorer = Callable[[str, Sequence[str]], Sequence[float]]
"""``score(query, passages) -> relevance`` (higher is more relevant)."""


@dataclass(frozen=True)
class Reranking:
    """Hits, best first, and what reranking them cost (``model`` empty: no model call)."""

    hits: list[SearchHit]
    model: str = ""
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0
    cached: bool = False
    """Whether the reply came from the response cache (no tokens spent)."""
    warning: str = ""
    """Why the first-stage order was kept although a model was asked ("" when not)."""

    @property
    def reranked(self) -> bool:
        return bool(self.model) and not self.warning

    def summary(self) -> dict[str, Any]:
        """What a search response reports: the model, tokens, cost and any warning."""
        return {"model": self.model, "reranked": self.reranked, "tokens_in": self.tokens_in,
                "tokens_out": self.tokens_out, "cost_usd": round(self.cost_usd, 6),
                "cached": self.cached, "warning": self.warning}


class Reranker(Protocol):
    """Reorders first-stage hits; returns at most ``k`` hits, best first."""

    def rerank(self, query: str, hits: Sequence[SearchHit], k: int) -> list[SearchHit]:
        ...


def reorder(hits: Sequence[SearchHit], scores: Sequence[float], k: int) -> list[SearchHit]:
    """Hits sorted by ``scores`` (stable on ties), with those scores, cut to ``k``."""
    order = sorted(range(len(hits)), key=lambda i: -scores[i])
    return [hits[i].model_copy(update={"score": float(scores[i])}) for i in order[:k]]


class CrossEncoderReranker:
    """Scores (query, passage) pairs with a cross-encoder."""

    def __init__(self, score: PairScorer) -> None:
        self._score = score

    def rerank(self, query: str, hits: Sequence[SearchHit], k: int) -> list[SearchHit]:
        if not hits:
            return []
        return reorder(hits, list(self._score(query, [h.text for h in hits])), k)

    @classmethod
    def from_onnx(cls, model_path: Path, tokenizer_path: Path,
                  max_tokens: int = 512) -> CrossEncoderReranker:
        """A local ONNX cross-encoder (e.g. an MS MARCO MiniLM export) and its tokenizer.json."""
        if not Path(model_path).is_file() or not Path(tokenizer_path).is_file():
            raise ConfigError("cross-encoder model or tokenizer file not found",
                              hint=f"{model_path}, {tokenizer_path}")
        import onnxruntime as ort
        from tokenizers import Tokenizer

        tokenizer: Any = Tokenizer.from_file(str(tokenizer_path))
        tokenizer.enable_truncation(max_length=max_tokens)
        tokenizer.enable_padding()
        session = ort.InferenceSession(str(model_path), providers=["CPUExecutionProvider"])
        names = {i.name for i in session.get_inputs()}

        def score(query: str, passages: Sequence[str]) -> list[float]:
            encoded = tokenizer.encode_batch([(query, p) for p in passages])
            feed = {"input_ids": np.array([e.ids for e in encoded], dtype=np.int64),
                    "attention_mask": np.array([e.attention_mask for e in encoded],
                                               dtype=np.int64),
                    "token_type_ids": np.array([e.type_ids for e in encoded], dtype=np.int64)}
            logits = session.run(None, {n: v for n, v in feed.items() if n in names})[0]
            return [float(row[-1]) for row in np.asarray(logits).reshape(len(passages), -1)]

        return cls(score)
