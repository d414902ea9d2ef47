"""Collect the final graph state and the job's usage into a ReadingReport."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from papermind.domain import VerificationSummary
from papermind.domain.reading import NodeUsage, ReadingReport, ReportUsage
from papermind.llm import Gateway, Usage

ROLES = ("reader", "checker", "questioner")
EXTRACTIVE_ROLES = ("explainer", "checker", "question_writer")
"""The roles an extractive reading calls (the checker only when it is not the bundled model)."""


def _node_usage(usage: Usage) -> NodeUsage:
    return NodeUsage(calls=usage.calls, tokens_in=usage.tokens_in, tokens_out=usage.tokens_out,
                     cost_usd=round(usage.cost_usd, 6))


def assemble_report(state: Mapping[str, Any], *, paper_id: str, job_id: str,
                    gateway: Gateway) -> ReadingReport:
    """The report of a finished run; ``gateway`` should be the view bound to ``job_id``."""
    ledger = gateway.usage
    total = ledger.total()
    usage = ReportUsage(
        tokens_in=total.tokens_in, tokens_out=total.tokens_out, cost_usd=round(total.cost_usd, 6),
        by_node={k: _node_usage(v) for k, v in ledger.by_node().items()},
        by_role={k: _node_usage(v) for k, v in ledger.by_role().items()})
    points = list(state.get("points", []))
    evidence = [e for p in points for e in p.evidence]
    fields: dict[str, Any] = {
        "history": state.get("history", []), "rounds": state.get("rounds", []),
        "revisions": state.get("revisions", []), "questions": state.get("questions", []),
        "dropped_questions": state.get("dropped_questions", []),
        "warnings": list(dict.fromkeys(state.get("warnings", [])))}
    if "context_info" in state:
        fields["context"] = state["context_info"]
    return ReadingReport(
        job_id=job_id, paper_id=paper_id, title=state.get("title", ""),
        demo_quality=gateway.is_demo_quality,
        models={role: gateway.model_for(role)
                for role in (EXTRACTIVE_ROLES if state.get("extractive") else ROLES)},
        usage=usage,
        verification=VerificationSummary.of(evidence),
        credibility=state.get("credibility", "medium"), rewrites=state.get("rewrites", 0),
        points=points, **fields)
