"""A small real paper (parsed by ingestion), the real grounding engine, scripted models."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from papermind.domain import Paper
from papermind.grounding import GroundingEngine
from papermind.ingest import parse_bytes
from papermind.llm.testing import FakeGateway, fake_gateway
from papermind.workflows.deep_reading import ReadingContext

PAPER_MD = """# Sparse Mixture Routing for Efficient Transformers

## Abstract

We propose a sparse routing method that sends each token to two experts. It reduces compute
by 40% while keeping accuracy.

## 1 Introduction

Large transformers are expensive to run. We introduce a router that selects experts per
token. Our method achieves 92.1% accuracy on GLUE.

## 2 Method

The router computes a score s = W x for each token x. The top two experts receive the token.
We define the load loss as the variance of expert usage. The total loss adds the load loss,
weighted by lambda, to the task loss.

## 3 Experiments

We evaluate on GLUE and SQuAD against a dense baseline and Switch Transformer. We report
accuracy and F1. Removing the load loss drops accuracy by 3.2 points.
"""

FABRICATED = "The router is trained with reinforcement learning on ImageNet."


class Papers:
    """A PaperSource over a dict."""

    def __init__(self, *papers: Paper) -> None:
        self.by_id = {p.id: p for p in papers}

    def get(self, paper_id: str) -> Paper:
        return self.by_id[paper_id]


@pytest.fixture(scope="session")
def paper() -> Paper:
    return parse_bytes(PAPER_MD.encode(), "sparse_routing.md")


def reader_answer(*, fabricate: bool = False, method_text: str | None = None) -> dict[str, Any]:
    """A reader answer whose quotes exist in PAPER_MD (one fabricated if asked)."""
    quote = FABRICATED if fabricate else "The top two experts receive the token."
    return {
        "method": [
            {"point": "A router scores each token and sends it to two experts.",
             "quotes": ["We introduce a router that selects experts per token."]},
            {"point": method_text or "Only the two best-scoring experts process a token.",
             "quotes": [quote]},
        ],
        "derivation": [
            {"states": "The total loss is the task loss plus lambda times the load loss.",
             "follows_from": "the definition of the load loss",
             "symbols": ["lambda: weight of the load loss"],
             "quotes": ["We define the load loss as the variance of expert usage."]},
        ],
        "experiments": {"datasets": ["GLUE", "SQuAD"],
                        "baselines": ["dense baseline", "Switch Transformer"],
                        "metrics": ["accuracy", "F1"], "ablations": ["without load loss"],
                        "quotes": ["We evaluate on GLUE and SQuAD against a dense baseline "
                                   "and Switch Transformer."]},
        "results": [
            {"finding": "Removing the load loss drops accuracy by 3.2 points.",
             "supports": "the load loss matters",
             "quotes": ["Removing the load loss drops accuracy by 3.2 points."]},
        ],
    }


def checker_answer(credibility: str, *, unsupported: tuple[str, ...] = (),
                   feedback: str = "") -> dict[str, Any]:
    ids = ["M1", "M2", "D1", "E1", "R1"]
    return {"judgements": [{"id": i, "verdict": "unsupported" if i in unsupported
                            else "supported", "reason": f"reason for {i}"} for i in ids],
            "credibility": credibility, "feedback": feedback}


def questions_answer(*builds_on: list[str]) -> dict[str, Any]:
    return {"questions": [{"question": f"Question {n} about {', '.join(ids)}?",
                           "builds_on": ids, "why": "to think"}
                          for n, ids in enumerate(builds_on, start=1)]}


ContextFactory = Callable[..., tuple[ReadingContext, FakeGateway]]


@pytest.fixture
def make_context(paper: Paper) -> ContextFactory:
    """``make_context(script, max_rewrites=1)`` -> (context, gateway) with real grounding."""
    def build(script: dict[str, list[Any]], **knobs: Any) -> tuple[ReadingContext, FakeGateway]:
        gateway = fake_gateway(script)
        ctx = ReadingContext(gateway=gateway, grounder=GroundingEngine(), papers=Papers(paper),
                             **knobs)
        return ctx, gateway
    return build
