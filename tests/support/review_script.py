"""Scripted panel answers and a run helper for review tests (fresh graph + in-memory
checkpointer each run)."""

from __future__ import annotations

import re
from typing import Any

from papermind.domain import Paper
from papermind.domain.review import ReportFlag, ReviewReport
from papermind.grounding import GroundingEngine
from papermind.services.checkpoints import memory_checkpointer
from papermind.services.runner import RunResult, run_graph
from papermind.workflows.review import FULL_PANEL, ReviewContext, build_graph

EDITOR = {"summary": "A sparse routing model for long legal documents, evaluated on LexGLUE.",
          "contribution_task": "Is the routing scheme new?",
          "methodology_task": "Is the slot router specified fully?",
          "experiment_task": "Do the LexGLUE results support the claims?"}


def reviewer(score: float, strength: tuple[str, str, str], issue: tuple[str, str, str, list[str]],
             target: str = "") -> dict[str, Any]:
    """A reviewer's answer: (content, lines, quote) of a strength and an issue (+ works)."""
    return {"score": score, "summary": "summary", "confidence": 0.8, "comments": [
        {"kind": "strength", "target": target, "content": strength[0], "lines": strength[1],
         "quote": strength[2], "confidence": 0.8},
        {"kind": "issue", "target": target, "content": issue[0], "lines": issue[1],
         "quote": issue[2], "references": issue[3], "confidence": 0.7}]}


def checker_answers(verdicts: dict[int, str] | None = None) -> Any:
    """A scripted checker answering each [Cn] of its prompt ('supported' unless told)."""
    def answer(messages: Any) -> dict[str, Any]:
        text = "\n".join(str(m.content) for m in messages)
        ids = sorted({int(n) for n in re.findall(r"\[C(\d+)\] CLAIM", text)})
        return {"verdicts": [{"id": f"C{n}", "verdict": (verdicts or {}).get(n, "supported"),
                              "reason": f"reason {n}"} for n in ids]}
    return answer


CONTRIBUTION = reviewer(
    7, ("The routing scheme is a clear contribution.", "1:7-8",
        "Our first contribution is a routing scheme that keeps the clauses that matter"),
    ("The claim about prior work is not quantified.", "1:6",
     "Prior sparse transformers lose accuracy on contracts", []), "Section 1")
METHODOLOGY = reviewer(
    6, ("The annealed temperature is well motivated.", "1:14-15",
        "a learned routing temperature that is annealed during training"),
    ("Hyperparameters are not tuned per dataset, hurting reproducibility.", "1:18-19",
     "The hyperparameters of the slot router are not tuned per dataset", []), "Eq. 1")
EXPERIMENT = reviewer(
    5, ("The gain of 2.4 points over Longformer is solid.", "1:24",
        "Zebraformer improves macro-F1 by 2.4 points over Longformer"),
    ("Only 5 random seeds are used, so variance is unclear.", "1:21-22",
     "with three random seeds", ["Smith et al., 2031"]), "Table 1")
REPRODUCIBILITY = {"score": 6, "summary": "Seeds are stated; code and compute are not.",
                   "confidence": 0.7, "comments": [
    {"kind": "issue", "target": "Section 4", "content": "No code or data splits are released "
     "for the LexGLUE runs.", "lines": "1:21-22",
     "quote": "We evaluate on the LexGLUE benchmark", "confidence": 0.7},
    {"kind": "issue", "target": "Section 4", "content": "Three random seeds are too few to "
     "judge variance, and the compute budget is not given.", "lines": "1:21-22",
     "quote": "with three random seeds", "confidence": 0.6}]}
"""Two issues, no strength: the devil's claims stay C1-C3."""
DEVIL = {"attacks": [
    {"kind": "attack", "claim": f"C{n}", "content": f"Counter-hypothesis on the {topic}: the "
     "effect may come from tuning, not the idea.", "lines": lines, "quote": quote,
     "confidence": 0.6}
    for n, (topic, lines, quote) in enumerate([
        ("routing", "1:8", "routing scheme that keeps the clauses"),
        ("gain", "1:24", "improves macro-F1 by 2.4 points"),
        ("temperature", "1:14", "routing temperature that is annealed")], 1)]}
META = {"arbitrations": [{"disagreement": "D1.1", "verdict": "claim_stands", "reason": "ok"},
                         {"disagreement": "D1.2", "verdict": "attack_stands", "reason": "tuning"},
                         {"disagreement": "D1.3", "verdict": "unresolved", "reason": "unclear"}],
        "score_changes": [], "recommendation": "major_revision", "confidence": 0.6,
        "revision_plan": [{"action": "Tune the router per dataset.", "addresses": ["M4"]},
                          {"action": "Report variance over seeds.", "addresses": ["M6"]}]}


def script(**changes: Any) -> dict[str, list[Any]]:
    """One answer per role (claims C1-C3 are the contribution, experiment and methodology
    strengths, in that order); the checker answers 'supported' to everything."""
    base: dict[str, list[Any]] = {
        "editor": [EDITOR], "contribution_reviewer": [CONTRIBUTION],
        "methodology_reviewer": [METHODOLOGY], "experiment_reviewer": [EXPERIMENT],
        "reproducibility_reviewer": [REPRODUCIBILITY],
        "devil": [DEVIL], "meta": [META], "checker": [checker_answers()]}
    base.update(changes)
    return base


def context(gateway: Any, **knobs: Any) -> ReviewContext:
    return ReviewContext(gateway=gateway, grounder=GroundingEngine(), **knobs)


async def run_review(gateway: Any, paper: Paper, *, panel: list[str] | None = None,
                     checkpointer: Any = None, thread_id: str = "job-1",
                     interrupt_before: list[str] | None = None, resume: Any = None,
                     **knobs: Any) -> RunResult:
    """One run on a fresh graph (and a fresh in-memory checkpointer unless given)."""
    return await run_graph(build_graph(), {"paper": paper, "panel": panel or list(FULL_PANEL)},
                           thread_id=thread_id, checkpointer=checkpointer or memory_checkpointer(),
                           context=context(gateway, **knobs), interrupt_before=interrupt_before,
                           resume=resume)


def with_lost_comment(report: ReviewReport, label: str = "Lost comment") -> ReviewReport:
    """``report`` with its first comment unfound (it cites lines that are not there) and
    flagged three times for works it cites that resolve nowhere."""
    first = report.comments[0]
    lost = {"quote": "", "cited": "see above", "claim": first.content, "found": False,
            "anchor": None, "method": "lines", "reasons": ["no line ids in 'see above'"],
            "support": {"verdict": "unchecked", "by": "", "reason": ""}, "notes": []}
    flags = [ReportFlag(kind="unresolved_reference", message=f"cites 'Work {n}'",
                        message_id=first.message_id) for n in range(3)]
    bad = first.model_copy(update={"found": False, "verified": False, "support": "unchecked",
                                   "evidence": [lost], "flags": flags, "label": label})
    return report.model_copy(update={"comments": [bad, *report.comments[1:]]})
