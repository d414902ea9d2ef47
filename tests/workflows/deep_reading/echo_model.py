"""Scripted model answers built from the prompt itself: real sentences become quotes."""

from __future__ import annotations

import re
from typing import Any

from langchain_core.messages import BaseMessage

from papermind.workflows.deep_reading.condense import split_sentences

_FENCE = re.compile(r"<<<PAPER_BEGIN [0-9a-f]+>>>\n(.*?)\n<<<PAPER_END", re.DOTALL)


def paper_sentences(messages: list[BaseMessage]) -> list[str]:
    """Sentences of the fenced paper text in the prompt (headings and markers left out)."""
    text = "\n".join(str(m.content) for m in messages)
    match = _FENCE.search(text)
    body = match.group(1) if match else ""
    out: list[str] = []
    for line in body.splitlines():
        if line.startswith(("#", "TITLE:", "[")):
            continue
        out += [s for s in split_sentences(line.replace("[...]", " ")) if len(s.split()) >= 6]
    return out


def echo_reader(fabricate: str | None = None) -> Any:
    """A reader whose points quote real sentences (plus one made-up quote if asked)."""
    def answer(messages: list[BaseMessage]) -> dict[str, Any]:
        sentences = paper_sentences(messages) or ["(no text)"]
        pick = lambda i: sentences[i % len(sentences)]  # noqa: E731
        method = [{"point": f"Principle: {pick(i)}", "quotes": [pick(i)]} for i in (1, 2)]
        if fabricate:
            method.append({"point": "A claim with a made-up quote.", "quotes": [fabricate]})
        return {"method": method,
                "derivation": [{"states": pick(3), "follows_from": "the definitions",
                                "symbols": ["t: epoch"], "quotes": [pick(3)]}],
                "experiments": {"datasets": ["D1"], "baselines": ["B1"], "metrics": ["M"],
                                "ablations": [], "quotes": [pick(4)]},
                "results": [{"finding": pick(5), "supports": "the main claim",
                             "quotes": [pick(5)]}]}
    return answer


def echo_checker(credibility: str) -> Any:
    """A checker that calls every point it is shown supported."""
    def answer(messages: list[BaseMessage]) -> dict[str, Any]:
        ids = re.findall(r"\[([MDER]\d+)\] POINT", "\n".join(str(m.content) for m in messages))
        return {"judgements": [{"id": i, "verdict": "supported", "reason": "evidence says so"}
                               for i in ids], "credibility": credibility, "feedback": ""}
    return answer


def echo_questioner(messages: list[BaseMessage]) -> dict[str, Any]:
    """Questions on the first two point ids shown."""
    ids = re.findall(r"^([MDER]\d+) \(", "\n".join(str(m.content) for m in messages), re.M)
    return {"questions": [{"question": f"Why does {i} hold?", "builds_on": [i], "why": "depth"}
                          for i in ids[:2]]}
