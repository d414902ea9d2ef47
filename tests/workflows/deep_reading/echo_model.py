"""Scripted model answers built from the prompt itself: real numbered lines become citations."""

from __future__ import annotations

import re
from typing import Any

from langchain_core.messages import BaseMessage

from tests.workflows.deep_reading.numbered import numbered_lines

MISSING_LINES = "9:99"


def paper_lines(messages: list[BaseMessage]) -> list[tuple[str, str]]:
    """(line id, text) of the prompt's numbered lines that read like prose (6+ words)."""
    return [(i, t) for i, t in numbered_lines(messages)
            if len(t.split()) >= 6 and not t.startswith("#")]


def echo_reader(fabricate: str | None = None) -> Any:
    """A reader whose points restate real lines and cite them (plus one point citing a line
    that does not exist, with ``fabricate`` as its quote, if asked)."""
    def answer(messages: list[BaseMessage]) -> dict[str, Any]:
        lines = paper_lines(messages) or [("1:1", "(no text)")]
        pick = lambda i: lines[i % len(lines)]  # noqa: E731
        method = [{"point": pick(i)[1], "lines": [pick(i)[0]]} for i in (1, 2)]
        if fabricate:
            method.append({"point": "A claim with a made-up quote.", "lines": [MISSING_LINES],
                           "quote": fabricate})
        return {"method": method,
                "derivation": [{"states": pick(3)[1], "follows_from": "the definitions",
                                "symbols": ["t: epoch"], "lines": [pick(3)[0]]}],
                "experiments": {"datasets": ["D1"], "baselines": ["B1"], "metrics": ["M"],
                                "ablations": [], "lines": [pick(4)[0]]},
                "results": [{"finding": pick(5)[1], "supports": "the main claim",
                             "lines": [pick(5)[0]]}]}
    return answer


def echo_checker(credibility: str) -> Any:
    """A support judge calling every claim supported ('high') or not enough ('low')."""
    verdict = "not_enough" if credibility == "low" else "supported"

    def answer(messages: list[BaseMessage]) -> dict[str, Any]:
        ids = re.findall(r"\[C(\d+)\] CLAIM", "\n".join(str(m.content) for m in messages))
        return {"verdicts": [{"id": f"C{i}", "verdict": verdict, "reason": "judged"}
                             for i in ids]}
    return answer


def echo_questioner(messages: list[BaseMessage]) -> dict[str, Any]:
    """Questions on the first two point ids shown."""
    ids = re.findall(r"^([MDER]\d+) \(", "\n".join(str(m.content) for m in messages), re.M)
    return {"questions": [{"question": f"Why does {i} hold?", "builds_on": [i], "why": "depth"}
                          for i in ids[:2]]}
