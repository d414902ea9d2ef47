"""The grounding checker's logic: cited lines, quotes and cited works through the Grounder,
then the support judge on the cited lines.

Two verdicts and one flag per comment, never merged:

- ``found``: code found the lines the comment cites (``Grounder.cite``; a bare quote is
  searched in the whole paper);
- ``support``: code checks (numbers, names, negation, comparison direction) and then the
  checker model judge whether those lines support the comment;
- ``references_resolved``: every cited work is in the paper's bibliography. A missing work is
  flagged and lowers the weight; the comment keeps its anchor.

Weight: the comment's confidence, multiplied by ``unverified_weight`` once when it is not
verified (not found, or found but not supported), once more when its lines contradict it,
and once more when it cites a work that is not in the bibliography.
"""

from __future__ import annotations

from collections.abc import Mapping

from papermind.domain import Anchor, Evidence, LineRef, Paper, SupportVerdict
from papermind.domain.review import MessageCheck, ReferenceCheck, ReviewMessage
from papermind.llm import Gateway
from papermind.workflows.ports import Grounder
from papermind.workflows.support_judge import SupportItem, claim_support, judge_support

CHECKED_KINDS = frozenset({"strength", "issue", "attack"})
MAX_CLAIM_LINES = 8
"""Lines of a claim's cited span the devil's advocate sees."""
JUDGE_BATCH = 16
"""Comments per checker call: the reviewers' comments of a full first round (4 reviewers x 4
comments) fit one call, the devil's attacks usually a second; cited spans are short, so the
prompt stays small."""


def check_message(grounder: Grounder, paper: Paper, message: ReviewMessage, *,
                  unverified_weight: float) -> MessageCheck:
    """Cite ``message``'s lines (with its quote and text as the claim) and resolve its works."""
    notes: list[str] = []
    evidence: list[Evidence] = []
    if message.cited.strip():
        evidence.append(grounder.cite(paper, message.cited, message.quote, claim=message.content))
    elif message.quote.strip():
        evidence.append(grounder.ground(paper, message.quote, claim=message.content))
        notes.append("no line ids cited: the quote was searched in the whole paper")
    else:
        notes.append("no lines cited: nothing to anchor")
    references = [_resolve(grounder, paper, cited) for cited in message.references if cited.strip()]
    found = bool(evidence) and all(e.found for e in evidence)
    if evidence and not found:
        notes.append("cited lines not found in the paper")
    resolved = all(r.resolved for r in references)
    if not resolved:
        notes.append("cites a work that is not in the paper's bibliography (flagged "
                     "separately; the anchor is kept)")
    support = claim_support(evidence)
    return MessageCheck(message_id=message.id, evidence=evidence, references=references,
                        found=found, support=support, references_resolved=resolved,
                        weight=weight(message.confidence, found, support, resolved,
                                      unverified_weight), notes=notes)


def weight(confidence: float, found: bool, support: SupportVerdict, resolved: bool,
           factor: float) -> float:
    """``confidence`` down-weighted by ``factor`` for each thing that did not hold."""
    value = confidence
    if not (found and support == "supported"):  # the lines do not (yet) hold
        value *= factor
    if support == "contradicted":
        value *= factor
    if not resolved:
        value *= factor
    return round(value, 4)


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


async def judge_checks(gateway: Gateway, checks: Mapping[str, MessageCheck],
                       messages: list[ReviewMessage], *, unverified_weight: float
                       ) -> tuple[dict[str, MessageCheck], list[str]]:
    """``checks`` with the checker model's support verdicts (one call per batch), and notes."""
    confidence = {m.id: m.confidence for m in messages}
    items = [SupportItem(claim=check.evidence[0].claim, evidence=tuple(check.evidence), key=mid)
             for mid, check in checks.items() if check.evidence]
    result = await judge_support(gateway, items, node="support_judge", batch_size=JUDGE_BATCH)
    judged = dict(checks)
    for item in result.items:
        check = checks[item.key]
        support = claim_support(item.evidence)
        judged[item.key] = check.model_copy(update={
            "evidence": list(item.evidence), "support": support,
            "weight": weight(confidence.get(item.key, check.weight), check.found, support,
                             check.references_resolved, unverified_weight)})
    return judged, result.notes


def anchor_lines(paper: Paper, anchor: Anchor) -> list[LineRef]:
    """Every flow line an anchor covers, across pages."""
    last_page = anchor.page_end or anchor.page
    refs: list[LineRef] = []
    for number in range(anchor.page, last_page + 1):
        if not 1 <= number <= len(paper.pages):
            break
        count = len(paper.page(number).lines)
        first = anchor.line_start if number == anchor.page else 1
        last = anchor.line_end if number == last_page else count
        refs += [LineRef(page=number, line=n) for n in range(first, min(last, count) + 1)]
    return refs
