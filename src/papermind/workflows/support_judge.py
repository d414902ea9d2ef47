"""The checker role judges whether the CITED TEXT supports a claim, for any workflow.

Code first materialises what a model cited (``Grounder.cite``) and runs its own support
checks; this module then asks the checker model, in batches, one structured verdict per
claim: ``supported`` | ``contradicted`` | ``not_enough`` with a short reason. The model sees
the paper's exact text at each anchor (``Evidence.matched_text``), never the quote the
writing model proposed. Verdicts are applied with ``Evidence.with_support``, so a worse code
verdict is never raised. Evidence that was not found is not judged (it stays unchecked).

Two code floors hold whatever the model says:

- a ``supported`` counts only when the claim is related to its cited text
  (``grounding.relatedness``: most content words, every number); below that it is
  ``not_enough`` by code, with the reason;
- the bundled local model is not a judge: when the checker role runs on it, no call is
  made and support comes from code alone (``by: code``): ``supported`` only where the claim
  restates its cited text closely, ``unchecked`` otherwise.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from papermind.domain import VERDICT_SEVERITY, Evidence, Support, SupportVerdict
from papermind.grounding.relatedness import CLOSE, relatedness
from papermind.i18n import labels
from papermind.llm import Gateway, PromptTemplate, fence_untrusted
from papermind.workflows.model_output import structured_or_none

PROMPT = PromptTemplate.load(Path(__file__).parent / "prompts" / "support_judge.md", {"items"})
JUDGED: tuple[SupportVerdict, ...] = ("supported", "contradicted", "not_enough")
MAX_CITED_CHARS = 1500
"""Cited text shown per evidence item; longer spans are cut (and the cut is marked)."""

MAX_BATCH = 32


@dataclass(frozen=True)
class SupportItem:
    """One claim and the evidence cited for it; the verdict covers the evidence jointly."""

    claim: str
    evidence: tuple[Evidence, ...]
    key: str = ""
    """The caller's id (a point id, a sentence number); returned unchanged."""
    floor: bool = True
    """Hold a 'supported' to the relatedness floor (off only for sentences code composed
    about its citations, such as a stated disagreement between two of them)."""

    @property
    def judgeable(self) -> tuple[Evidence, ...]:
        """Found evidence whose code verdict still lets a checker verdict count."""
        return tuple(e for e in self.evidence if e.found and not _code_lowered(e))


@dataclass(frozen=True)
class JudgeResult:
    """The items with their evidence judged, and notes on anything that went wrong."""

    items: list[SupportItem]
    notes: list[str] = field(default_factory=list)
    calls: int = 0
    credibility: labels.Level | None = None
    """The lowest overall rating the checker wrote (any language), if it wrote one."""


class VerdictOut(BaseModel):
    """The checker's verdict on one claim."""

    model_config = ConfigDict(json_schema_extra={"required": ["id", "verdict", "reason"]})
    id: str = Field(default="", description="the claim id, e.g. C1")
    verdict: str = Field(default="", json_schema_extra={"enum": list(JUDGED)})
    reason: str = Field(default="", description="one short sentence")

    @field_validator("id", "verdict", "reason", mode="before")
    @classmethod
    def _text(cls, value: Any) -> Any:
        return "" if value is None else value if isinstance(value, str) else str(value)


class SupportJudgement(BaseModel):
    """Whether each claim is supported by the paper text it cites."""

    verdicts: list[VerdictOut] = Field(default_factory=list, json_schema_extra={"maxItems": MAX_BATCH})
    credibility: str = Field(default="", description="optional overall rating of these claims: "
                             "high, medium or low (in any language, e.g. '[可信度: 高]')")

    @field_validator("verdicts", mode="before")
    @classmethod
    def _listify(cls, value: Any) -> Any:
        return [value] if isinstance(value, dict) else [] if value is None else value


async def judge_support(gateway: Gateway, items: Sequence[SupportItem], *,
                        node: str = "support_judge", batch_size: int = 8,
                        role: str = "checker") -> JudgeResult:
    """``items`` with every judgeable evidence item's support set by the checker model.

    One structured call per batch of ``batch_size`` claims (batches run concurrently under
    the gateway's limits). A batch whose output is invalid, or a claim the checker skipped,
    leaves that evidence unchecked with a note; items with nothing found are not sent.
    """
    if not gateway.resolve(role).kind.judges:
        return JudgeResult([code_judged(item) for item in items], [OFFLINE_NOTE])
    by = f"checker:{gateway.model_for(role)}"
    size = min(max(1, batch_size), MAX_BATCH)
    todo = [i for i, item in enumerate(items) if item.judgeable]
    batches = [todo[start:start + size] for start in range(0, len(todo), size)]
    outcomes = await asyncio.gather(*(_judge_batch(gateway, [items[i] for i in batch],
                                                   role=role, node=node) for batch in batches))
    judged = list(items)
    notes: list[str] = []
    levels = [level for _, _, level in outcomes if level is not None]
    for batch, (verdicts, batch_notes, _) in zip(batches, outcomes, strict=True):
        notes += batch_notes
        for position, index in enumerate(batch):
            verdict = verdicts.get(position)
            if verdict is None:
                notes.append(f"checker gave no verdict for {items[index].key or index}")
                continue
            judged[index] = apply_verdict(items[index], Support(verdict=verdict[0], by=by,
                                                                reason=verdict[1]))
    lowest = min(levels, key=("low", "medium", "high").index) if levels else None
    return JudgeResult(judged, notes, len(batches), lowest)


async def judge_evidence(gateway: Gateway, evidence: Sequence[Evidence], *,
                         node: str = "support_judge",
                         batch_size: int = 8) -> tuple[list[Evidence], list[str]]:
    """Each evidence item judged on its own against its ``claim`` (review comments, verify)."""
    items = [SupportItem(e.claim, (e,), key=str(n)) for n, e in enumerate(evidence, 1)]
    result = await judge_support(gateway, items, node=node, batch_size=batch_size)
    return [item.evidence[0] for item in result.items], result.notes


OFFLINE_NOTE = ("support decided by code only: the bundled local model is not a support "
                "judge (configure an endpoint for the checker role to judge support)")


def apply_verdict(item: SupportItem, support: Support) -> SupportItem:
    """``item`` with ``support`` set on its found evidence (never above a code verdict); a
    ``supported`` below the relatedness floor becomes ``not_enough`` by code."""
    if support.verdict == "supported" and item.floor:
        related = relatedness(item.claim, _cited_text(item))
        measured = [e.related for e in item.evidence if e.found and e.related is not None]
        if measured and related.anchored:  # code measured it around the anchor too
            related = replace(related, share=max(related.share, *measured))
        if not related.related:
            said = f"; the checker said supported ({support.reason})" if support.reason else ""
            support = Support(verdict="not_enough", by="code", reason=related.reason() + said)
    return replace(item, evidence=tuple(e.with_support(support) if e.found else e
                                        for e in item.evidence))


def code_judged(item: SupportItem) -> SupportItem:
    """``item`` judged by code alone: supported only when the claim restates its cited text
    closely (content words and every number there); otherwise left unchecked."""
    if not item.judgeable:
        return item
    related = relatedness(item.claim, _cited_text(item))
    if related.share >= CLOSE:
        support = Support(verdict="supported", by="code", reason=(
            f"the cited text states the claim ({round(related.share * 100)}% of its content "
            "words and every number are there)"))
        return replace(item, evidence=tuple(e.with_support(support) if e.found else e
                                            for e in item.evidence))
    return item


def _cited_text(item: SupportItem) -> str:
    return " ".join(e.matched_text for e in item.evidence if e.found)


def claim_support(evidence: Sequence[Evidence]) -> SupportVerdict:
    """One verdict for a claim over its evidence: any contradiction wins, then any support.

    Unfound evidence counts as nothing; a claim with nothing found is 'unchecked'."""
    found = [e.support.verdict for e in evidence if e.found]
    if not found:
        return "unchecked"
    if "contradicted" in found:
        return "contradicted"
    if "supported" in found:
        return "supported"
    return max(found, key=lambda v: VERDICT_SEVERITY[v])


def parse_verdict(raw: str) -> SupportVerdict | None:
    """A verdict from what a model wrote, in any language ('Supported.', 'partial', '支持')."""
    return labels.parse_verdict(raw)


def listing(items: Sequence[SupportItem]) -> str:
    """Claims numbered C1.. with the cited text of each judgeable evidence item."""
    blocks: list[str] = []
    for number, item in enumerate(items, 1):
        lines = [f"[C{number}] CLAIM: {item.claim.strip()}"]
        for e in item.judgeable:
            text = " ".join(e.matched_text.split())
            if len(text) > MAX_CITED_CHARS:
                text = text[:MAX_CITED_CHARS] + " [...]"
            label = e.anchor.label() if e.anchor is not None else e.cited
            lines.append(f'  CITED {label}: "{text}"')
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


async def _judge_batch(gateway: Gateway, batch: list[SupportItem], *, role: str,
                       node: str) -> tuple[dict[int, tuple[SupportVerdict, str]], list[str],
                                           labels.Level | None]:
    """Verdicts by position in ``batch`` (0-based), notes, and the checker's own rating."""
    messages = PROMPT.render(items=fence_untrusted(listing(batch), "CLAIMS"))
    output, warnings = await structured_or_none(gateway, role, messages, SupportJudgement,
                                                node=node, outcome="its claims stay unchecked")
    if output is None:
        return {}, warnings, None
    verdicts: dict[int, tuple[SupportVerdict, str]] = {}
    notes: list[str] = []
    for out in output.verdicts:
        position = _position(out.id, len(batch))
        verdict = parse_verdict(out.verdict)
        if position is None or verdict is None:
            notes.append(f"checker gave an unreadable verdict for {out.id[:20]!r}")
        elif position not in verdicts:
            verdicts[position] = (verdict, out.reason.strip())
    return verdicts, notes, labels.parse_level(output.credibility)


def _position(raw: str, size: int) -> int | None:
    digits = "".join(ch for ch in raw if ch.isdigit())
    if not digits:
        return None
    number = int(digits)
    return number - 1 if 1 <= number <= size else None


def _code_lowered(evidence: Evidence) -> bool:
    """Code already judged it worse than 'unchecked': the checker cannot change that."""
    support = evidence.support
    return support.by == "code" and VERDICT_SEVERITY[support.verdict] > VERDICT_SEVERITY[
        "unchecked"]
