"""The deep-reading test paper (Markdown) and scripted reader, checker and questioner answers."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

from langchain_core.messages import BaseMessage

from papermind.domain import Paper
from papermind.llm.testing import FakeGateway
from papermind.workflows.deep_reading import ReadingContext
from tests.workflows.deep_reading.numbered import lines_of, numbered_lines

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
MISSING_LINES = "9:99"
"""The line id a fabricated point cites: the paper has no page 9."""


class Papers:
    """A PaperSource over a dict."""

    def __init__(self, *papers: Paper) -> None:
        self.by_id = {p.id: p for p in papers}

    def get(self, paper_id: str) -> Paper:
        return self.by_id[paper_id]


def reader_answer(*, fabricate: bool = False, method_text: str | None = None) -> Any:
    """A reader citing the lines (found in its numbered prompt) of real sentences of PAPER_MD;
    with ``fabricate``, M2 cites lines that do not exist with a made-up quote."""
    second = "The top two experts receive the token."
    draft: dict[str, Any] = {
        "method": [
            {"point": "A router scores each token and sends it to two experts.",
             "quote": "We introduce a router that selects experts per token."},
            {"point": method_text or "The two best-scoring experts alone process a token.",
             "quote": FABRICATED if fabricate else second},
        ],
        "derivation": [
            {"states": "The total loss is the task loss plus lambda times the load loss.",
             "follows_from": "the definition of the load loss",
             "symbols": ["lambda: weight of the load loss"],
             "quote": "We define the load loss as the variance of expert usage."},
        ],
        "experiments": {"datasets": ["GLUE", "SQuAD"],
                        "baselines": ["dense baseline", "Switch Transformer"],
                        "metrics": ["accuracy", "F1"], "ablations": ["load loss removed"],
                        "quote": "We evaluate on GLUE and SQuAD against a dense baseline "
                                 "and Switch Transformer."},
        "results": [
            {"finding": "Removing the load loss drops accuracy by 3.2 points.",
             "supports": "the load loss matters",
             "quote": "Removing the load loss drops accuracy by 3.2 points."},
        ],
    }

    def answer(messages: list[BaseMessage]) -> dict[str, Any]:
        lines = numbered_lines(messages)
        out = copy.deepcopy(draft)
        items = [*out["method"], *out["derivation"], out["experiments"], *out["results"]]
        for item in items:
            item["lines"] = [lines_of(item["quote"], lines) or MISSING_LINES]
        return out
    return answer


POINT_CLAIMS = {"M1": "router scores each token", "M2": "experts process a token",
                "D1": "total loss is the task loss", "E1": "datasets: GLUE",
                "R1": "Removing the load loss"}
"""A phrase of each reader_answer point's text, to tell the claims apart in a judge prompt."""


def checker_answer(credibility: str = "high", *, unsupported: tuple[str, ...] = (),
                   verdict: str = "not_enough") -> Any:
    """A scripted support judge: ``unsupported`` point ids get ``verdict``, the rest
    'supported'; credibility 'low' judges every point ``verdict``, 'medium' the last two."""
    def answer(messages: list[BaseMessage]) -> dict[str, Any]:
        text = "\n".join(str(m.content) for m in messages)
        claims = re.findall(r"\[C(\d+)\] CLAIM: (.*)", text)
        bad = {n for n, claim in claims for pid in unsupported if POINT_CLAIMS[pid] in claim}
        if credibility == "low":
            bad = {n for n, _ in claims}
        elif credibility == "medium":
            bad |= {n for n, _ in claims[-2:]}
        return {"verdicts": [{"id": f"C{n}", "verdict": verdict if n in bad else "supported",
                              "reason": f"reason for claim {n}"} for n, _ in claims]}
    return answer


def questions_answer(*builds_on: list[str]) -> dict[str, Any]:
    return {"questions": [{"question": f"Why is it that the "
                           f"{' and the '.join(POINT_CLAIMS.get(i, i) for i in ids)}?",
                           "builds_on": ids, "why": "to think"}
                          for ids in builds_on]}


ContextFactory = Callable[..., tuple[ReadingContext, FakeGateway]]
