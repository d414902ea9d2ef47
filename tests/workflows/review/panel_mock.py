"""A MockOpenAIServer responder that plays the whole panel plausibly from each prompt.

Reviewers cite lines of the numbered text they were given (its ids, a few of its words as
the quote), the devil attacks every claim it sees on the first line the claim cited, the
checker calls a claim supported when it shares three content words with its cited text, the
meta-reviewer settles every listed disagreement. Used by CLI/service tests and by
bench/review_*.py (deterministic: no randomness).
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
    """The paper's fenced text (a reviewer's prompt also fences the editor's task), else the
    first fenced block (the devil's claims)."""
    matches = list(_FENCE.finditer(text))
    chosen = next((m for m in matches if m.group(1) == "PAPER"), matches[0] if matches else None)
    return chosen.group(2) if chosen else ""


def numbered_lines(text: str) -> list[tuple[str, str]]:
    """(line id, text) of every numbered line in prompt text ('[p.N]' markers, 'n text')."""
    page, out = 0, []
    for raw in text.splitlines():
        line = raw.strip()
        marker = re.fullmatch(r"\[p\.(\d+)\]", line)
        if marker:
            page = int(marker.group(1))
            continue
        match = re.match(r"(\d+) (.+)", line)
        if match and page:
            out.append((f"{page}:{match.group(1)}", match.group(2)))
    return out


def _quote(sentence: str, words: int = 10) -> str:
    return " ".join(sentence.split()[:words])


def reviewer_reply(system: str, user: str) -> dict[str, Any]:
    role = next((k for k in _SCORES if k in system.lower()), "method")
    lines = [x for x in numbered_lines(_fenced(user)) if len(x[1].split()) >= 6] or [("", "")]
    picks = [lines[0], lines[len(lines) // 2], lines[-1]]
    comments = [{"kind": "strength", "target": "", "content": f"The {role} part is clear: "
                 f"{_quote(picks[0][1], 6)}.", "lines": picks[0][0],
                 "quote": _quote(picks[0][1], 5), "confidence": 0.7},
                {"kind": "issue", "target": "", "content": f"The {role} claim needs support: "
                 f"{_quote(picks[1][1], 6)}.", "lines": picks[1][0],
                 "quote": _quote(picks[1][1], 5), "confidence": 0.6},
                {"kind": "issue", "target": "", "content": f"Unclear {role} detail near: "
                 f"{_quote(picks[2][1], 6)}.", "lines": picks[2][0],
                 "quote": _quote(picks[2][1], 5), "confidence": 0.5,
                 "references": ["Nobody et al., 2031"]}]
    return {"score": _SCORES[role], "summary": f"The {role} is described.", "confidence": 0.7,
            "comments": comments}


def devil_reply(user: str) -> dict[str, Any]:
    attacks = []
    for block in re.split(r"^(?=C\d+ )", _fenced(user), flags=re.M):
        claim = re.match(r"(C\d+) ", block)
        cited = numbered_lines(block)
        if claim and cited:
            attacks.append({"kind": "attack", "claim": claim.group(1), "confidence": 0.6,
                            "content": "The result could come from tuning rather than the idea.",
                            "lines": cited[0][0], "quote": _quote(cited[0][1], 4)})
    return {"attacks": attacks}


def checker_reply(user: str) -> dict[str, Any]:
    """'supported' when a claim shares three content words with its cited text."""
    verdicts = []
    for number, claim, cited in re.findall(
            r"\[C(\d+)\] CLAIM: (.*?)\n((?:  CITED .*\n?)*)", _fenced(user)):
        shared = _words(claim) & _words(cited)
        verdicts.append({"id": f"C{number}",
                         "verdict": "supported" if len(shared) >= 3 else "not_enough",
                         "reason": f"{len(shared)} content words shared"})
    return {"verdicts": verdicts}


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]{4,}", text.lower())}


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
    if title == "SupportJudgement":
        return checker_reply(user)
    return "mock reply"
