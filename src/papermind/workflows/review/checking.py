"""The grounding checker's logic: every quote and cited work of a message, through the Grounder."""

from __future__ import annotations

from papermind.domain import Paper
from papermind.domain.review import MessageCheck, ReferenceCheck, ReviewMessage
from papermind.workflows.ports import Grounder

CHECKED_KINDS = frozenset({"strength", "issue", "attack"})


def check_message(grounder: Grounder, paper: Paper, message: ReviewMessage, *,
                  unverified_weight: float) -> MessageCheck:
    """Ground ``message``'s quote and resolve its references; unverified -> down-weighted."""
    notes: list[str] = []
    evidence = []
    if message.quote.strip():
        claim = message.content if message.kind == "strength" else None
        evidence.append(grounder.ground(paper, message.quote, claim=claim))
    else:
        notes.append("no quote given: nothing to anchor")
    references = [_resolve(grounder, paper, cited) for cited in message.references if cited.strip()]
    quote_ok = bool(evidence) and all(e.verified for e in evidence)
    refs_ok = all(r.resolved for r in references)
    if evidence and not quote_ok:
        notes.append("quote not found in the paper")
    if not refs_ok:
        notes.append("cited work not in the paper's bibliography")
    verified = quote_ok and refs_ok
    weight = message.confidence * (1.0 if verified else unverified_weight)
    return MessageCheck(message_id=message.id, evidence=evidence, references=references,
                        verified=verified, weight=round(weight, 4), notes=notes)


def _resolve(grounder: Grounder, paper: Paper, cited: str) -> ReferenceCheck:
    entry = grounder.resolve_reference(paper, cited)
    if entry is None:
        return ReferenceCheck(cited=cited, resolved=False)
    return ReferenceCheck(cited=cited, resolved=True, entry_key=entry.key, entry=entry.raw)


def check_new_messages(grounder: Grounder, paper: Paper, messages: list[ReviewMessage],
                       done: set[str], *, unverified_weight: float) -> dict[str, MessageCheck]:
    """Checks of the messages not checked yet (a second round checks only its own)."""
    return {m.id: check_message(grounder, paper, m, unverified_weight=unverified_weight)
            for m in messages if m.kind in CHECKED_KINDS and m.id not in done}
