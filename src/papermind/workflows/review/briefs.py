"""Compact texts the devil and the meta-reviewer see, with short aliases for message ids."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from papermind.domain.review import Disagreement, MessageCheck, ReviewMessage
from papermind.reports import status_label
from papermind.workflows.review.arbitration import current_scores
from papermind.workflows.review.panel import ASPECTS
from papermind.workflows.review.state import ReviewState

_MAX_TEXT = 180


@dataclass
class Aliases:
    """Short names ('C1', 'M3') shown to a model, mapped back to message ids."""

    prefix: str
    ids: dict[str, str] = field(default_factory=dict)

    def add(self, message_id: str) -> str:
        alias = f"{self.prefix}{len(self.ids) + 1}"
        self.ids[alias] = message_id
        return alias

    def resolve(self, name: str | None) -> str | None:
        if not name:
            return None
        name = name.strip().strip("[]()")
        if name in self.ids:
            return self.ids[name]
        if name in self.ids.values():
            return name
        digits = re.findall(r"\d+", name)
        return self.ids.get(f"{self.prefix}{digits[0]}") if len(digits) == 1 else None


def _short(text: str, limit: int = _MAX_TEXT) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def claims_brief(claims: list[ReviewMessage],
                 cited_lines: Callable[[ReviewMessage], str]) -> tuple[str, Aliases]:
    """The devil's whole input: each positive claim and the numbered lines it cited
    (``cited_lines``: original line ids), or its quote when its lines were not found."""
    aliases = Aliases("C")
    lines: list[str] = []
    for claim in claims:
        alias = aliases.add(claim.id)
        target = claim.target.label or "paper"
        lines.append(f"{alias} [{target}] {_short(claim.content)}")
        numbered = cited_lines(claim)
        if numbered:
            lines.append("   cited lines:\n" + "\n".join(f"   {x}" for x in numbered.splitlines()))
        elif claim.quote.strip():
            lines.append(f"   cited lines: not found; its quote: \"{_short(claim.quote, 300)}\"")
        else:
            lines.append("   cited lines: none")
    return "\n".join(lines), aliases


def panel_brief(state: ReviewState, checks: dict[str, MessageCheck]) -> tuple[str, Aliases]:
    """The meta-reviewer's input: every agent's structured output, compactly."""
    aliases = Aliases("M")
    messages = state.get("messages", [])
    lines = [f"Editor: {_short(m.content, 300)}" for m in messages
             if m.sender == "editor" and m.kind == "summary"]
    scores = current_scores(state)
    for role, original in state.get("original_scores", {}).items():
        lines.append(f"Score {role} ({ASPECTS.get(role, '')}): original {original:g}, "
                     f"current {scores.get(role, original):g} (1-10)")
    lines += [f"Summary {m.sender} (confidence {m.confidence:.1f}): {_short(m.content)}"
              for m in messages if m.kind == "summary" and m.sender != "editor"
              and m.sender != "meta"]
    for message in messages:
        if message.kind in {"strength", "issue", "attack"}:
            lines.append(_item_line(message, aliases, checks.get(message.id)))
    return "\n".join(lines), aliases


def _item_line(message: ReviewMessage, aliases: Aliases, check: MessageCheck | None) -> str:
    alias = aliases.add(message.id)
    about = ""
    if message.reply_to:
        target_alias = next((a for a, mid in aliases.ids.items() if mid == message.reply_to), "?")
        about = f" on {target_alias}"
    status = "no lines cited"
    if check is not None and check.evidence:
        evidence = check.evidence[0]
        where = evidence.anchor.label() if evidence.anchor is not None else "lines"
        status = f"{where}: {_short(status_label(evidence), 90)}"
    if check is not None and not check.references_resolved:
        status += "; cites a work NOT in the bibliography"
    weight = check.weight if check is not None else message.confidence
    return (f"[{alias}] {message.sender} {message.kind}{about} "
            f"[{message.target.label or 'paper'}] (weight {weight:.2f}, {status}): "
            f"{_short(message.content)}")


def disagreements_brief(disagreements: list[Disagreement], aliases: Aliases) -> str:
    if not disagreements:
        return "(none)"
    back = {mid: alias for alias, mid in aliases.ids.items()}
    lines = []
    for d in disagreements:
        refs = ", ".join(back[m] for m in d.message_ids if m in back)
        lines.append(f"{d.id} ({d.kind}{'; ' + refs if refs else ''}): {_short(d.summary, 300)}")
    return "\n".join(lines)
