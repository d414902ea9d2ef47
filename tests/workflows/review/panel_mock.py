"""A MockOpenAIServer responder that plays the whole panel plausibly from each prompt.

Reviewers quote sentences of the text they were given, the devil attacks every claim it
sees with words of its excerpt, the meta-reviewer settles every listed disagreement. Used
by CLI/service tests and by bench/review_*.py (deterministic: no randomness).
"""

from __future__ import annotations

import re
from typing import Any

from papermind.llm.testing.mock_server import requested_schema

_FENCE = re.compile(r"<<<(\w+)_BEGIN \w+>>>\n(.*?)\n<<<\1_END \w+>>>", re.S)
_SCORES = {"contribution": 7.0, "method": 5.0, "experiment": 6.0}


def _prompt(request: dict[str, Any]) -> tuple[str, str]:
    messages = request.get("messages", [])
    system = " ".join(str(m.get("content") or "") for m in messages if m.get("role") == "system")
    user = " ".join(str(m.get("content") or "") for m in messages if m.get("role") == "user")
    return system, user


def _fenced(text: str) -> str:
    match = _FENCE.search(text)
    return match.group(2) if match else ""


def _sentences(text: str) -> list[str]:
    body = " ".join(line for line in text.splitlines()
                    if line.strip() and not line.startswith(("## ", "[", "Abstract:", "Title:")))
    parts = [s.strip() for s in re.split(r"(?<=[.!?])\s+", body)]
    return [s for s in parts if 8 <= len(s.split()) <= 60]


def _quote(sentence: str, words: int = 10) -> str:
    return " ".join(sentence.split()[:words])


def reviewer_reply(system: str, user: str) -> dict[str, Any]:
    role = next((k for k in _SCORES if k in system.lower()), "method")
    sentences = _sentences(_fenced(user)) or ["no text"]
    picks = [sentences[0], sentences[len(sentences) // 2], sentences[-1]]
    comments = [{"kind": "strength", "target": "", "content": f"The {role} part is clear: "
                 f"{_quote(picks[0], 6)}.", "quote": _quote(picks[0]), "confidence": 0.7},
                {"kind": "issue", "target": "", "content": f"The {role} claim needs support: "
                 f"{_quote(picks[1], 6)}.", "quote": _quote(picks[1]), "confidence": 0.6},
                {"kind": "issue", "target": "", "content": f"Unclear {role} detail near: "
                 f"{_quote(picks[2], 6)}.", "quote": _quote(picks[2]), "confidence": 0.5,
                 "references": ["Nobody et al., 2031"]}]
    return {"score": _SCORES[role], "summary": f"The {role} is described.", "confidence": 0.7,
            "comments": comments}


def devil_reply(user: str) -> dict[str, Any]:
    claims = re.findall(r"^(C\d+) .*?\n\s+excerpt: \"(.*?)\"$", _fenced(user), re.M)
    return {"attacks": [{"kind": "attack", "claim": cid, "confidence": 0.6,
                         "content": "The result could come from tuning rather than the idea.",
                         "quote": _quote(excerpt, 5)} for cid, excerpt in claims]}


def meta_reply(user: str) -> dict[str, Any]:
    ids = sorted(set(re.findall(r"^(D\d+\.\d+) ", user, re.M)))
    items = re.findall(r"\[(M\d+)\] \S+ issue", user)
    return {"arbitrations": [{"disagreement": d, "verdict": "claim_stands",
                              "reason": "the excerpt supports the claim"} for d in ids],
            "score_changes": [], "recommendation": "major_revision", "confidence": 0.6,
            "revision_plan": [{"action": f"Address {m}.", "addresses": [m]} for m in items[:3]]}


def panel_responder(request: dict[str, Any]) -> dict[str, Any] | str:
    """The reply for one chat request, by the schema it asks for."""
    title = (requested_schema(request) or {}).get("title", "")
    system, user = _prompt(request)
    if title == "EditorDraft":
        return {"summary": "The paper proposes a method and evaluates it.",
                "contribution_task": "Check novelty.", "methodology_task": "Check the method.",
                "experiment_task": "Check the experiments."}
    if title == "ReviewerDraft":
        return reviewer_reply(system, user)
    if title == "DevilDraft":
        return devil_reply(user)
    if title == "MetaDraft":
        return meta_reply(user)
    return "mock reply"
