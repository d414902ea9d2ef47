"""Answering nodes: detect contradictions, answer with citations, verify every citation."""

from __future__ import annotations

import re
from typing import Any

from langgraph.runtime import Runtime

from papermind.domain.answer import AnswerSentence, Citation, Contradiction, EvidenceItem
from papermind.domain.evidence import Evidence, Support
from papermind.errors import NotFoundError
from papermind.llm import fence_untrusted
from papermind.workflows.deep_qa.context import QAContext
from papermind.workflows.deep_qa.nodes.common import (
    PaperCache,
    ask,
    earlier_turns,
    evidence_table,
    prompt,
    step,
)
from papermind.workflows.deep_qa.schemas import AnswerOut, ContradictionsOut
from papermind.workflows.deep_qa.state import QAState
from papermind.workflows.support_judge import SupportItem, claim_support, judge_support

_CONTRA_VARS = frozenset({"question", "evidence"})
_ANSWER_VARS = frozenset({"earlier", "question", "evidence", "contradictions"})
_ID = re.compile(r"\bE\s*(\d+)\b", re.IGNORECASE)
_WORDY = re.compile(r"^(?!\s*<[^>]*>\s*$).*\w\w", re.DOTALL)
"""A real sentence: two word characters, and not an unfilled '<placeholder>'."""
_QUOTES = "\u201c\u201d\" "
MAX_PROMPT_EVIDENCE = 12
EXTRACTIVE_SENTENCES = 3


def _usable(item: EvidenceItem) -> bool:
    """Found in a stored paper, or computed from found evidence, and not lowered by code."""
    support = item.evidence.support
    lowered = support.by == "code" and support.verdict in ("contradicted", "not_enough")
    if item.kind == "computed":
        return support.verdict == "supported"
    return item.evidence.found and not lowered


def _for_prompt(evidence: list[EvidenceItem], *, found_only: bool = False
                ) -> list[EvidenceItem]:
    """At most MAX_PROMPT_EVIDENCE items, found first, in table order.

    ``found_only`` leaves items out that code did not find whenever some item was found,
    so the answer can only rest on text that exists in the papers.
    """
    if found_only and any(_usable(e) for e in evidence):
        evidence = [e for e in evidence if _usable(e)]
    ranked = sorted(evidence, key=lambda e: (not _usable(e), int(e.id[1:] or 0)))
    chosen = {e.id for e in ranked[:MAX_PROMPT_EVIDENCE]}
    return [e for e in evidence if e.id in chosen]


def evidence_id(raw: str) -> str:
    """'[E3]', 'e3', 'E 3' -> 'E3'; anything else unchanged (and later unknown)."""
    match = _ID.search(raw)
    return f"E{int(match.group(1))}" if match else raw.strip()


def evidence_ids(cites: list[str]) -> list[str]:
    """Every id in the model's cite strings ('E1, E2' counts twice), in order, once each."""
    found: list[str] = []
    for raw in cites:
        ids = [f"E{int(n)}" for n in _ID.findall(raw)] or [raw.strip()]
        found += [i for i in ids if i and i not in found]
    return found


async def detect_contradictions(state: QAState, runtime: Runtime[QAContext]) -> dict[str, Any]:
    """Pairs of evidence from different papers that disagree, with anchors, years and a note."""
    quotes = [e for e in state.get("evidence", []) if e.kind == "quote"]
    skip = ("fewer than two quotes" if len(quotes) < 2 else
            "all quotes come from one paper" if len({e.paper_id for e in quotes}) < 2 else "")
    if skip:
        return {"contradictions": [], "history": [step("detect_contradictions",
                                                       f"skipped: {skip}")]}
    shown = _for_prompt(quotes)
    messages = prompt("detect_contradictions", _CONTRA_VARS).render(
        question=state["question"], evidence=evidence_table(shown))
    out, notes = await ask(runtime, "checker", messages, ContradictionsOut,
                           "detect_contradictions")
    by_id = {e.id: e for e in shown}
    found: list[Contradiction] = []
    pairs_seen: set[frozenset[str]] = set()
    for pair in out.pairs if out else []:
        first, second = evidence_id(pair.first), evidence_id(pair.second)
        key = frozenset({first, second})
        if first == second or first not in by_id or second not in by_id or key in pairs_seen:
            continue
        pairs_seen.add(key)
        a, b = by_id[first], by_id[second]
        found.append(Contradiction(
            first=first, second=second, note=pair.note.strip() or "the sources disagree",
            first_paper=a.paper_id, second_paper=b.paper_id, first_year=a.year,
            second_year=b.year, first_anchor=a.evidence.anchor, second_anchor=b.evidence.anchor))
    summary = "; ".join(f"{c.first} vs {c.second}: {c.note}" for c in found) or "none found"
    return {"contradictions": found, "notes": notes,
            "history": [step("detect_contradictions", summary)]}


async def answer(state: QAState, runtime: Runtime[QAContext]) -> dict[str, Any]:
    """A short answer whose sentences cite evidence ids; 'insufficient' when nothing fits."""
    evidence = state.get("evidence", [])
    if not evidence:
        return {"sentences": [], "status": "insufficient_evidence",
                "history": [step("answer", "insufficient evidence: nothing was found")]}
    contradictions = state.get("contradictions", [])
    listed = "\n".join(f"{c.first} and {c.second} disagree: {c.note}" for c in contradictions)
    messages = prompt("answer", _ANSWER_VARS).render(
        earlier=earlier_turns(state), question=state["question"],
        evidence=evidence_table(_for_prompt(evidence, found_only=True)),
        contradictions=(f"Known disagreements:\n{fence_untrusted(listed, 'NOTES')}"
                        if listed else ""))
    out, notes = await ask(runtime, "answerer", messages, AnswerOut, "answer")
    if out is None:
        sentences, status = _extractive(evidence), "extractive"
    elif out.insufficient or not [s for s in out.sentences if _WORDY.search(s.text)]:
        sentences, status = [], "insufficient_evidence"
    else:
        sentences = [AnswerSentence(text=s.text.strip(), cites=evidence_ids(s.cites))
                     for s in out.sentences if _WORDY.search(s.text)]
        status = "answered"
    if sentences:
        sentences += _disagreements(sentences, contradictions)
    summary = f"{status}: {len(sentences)} sentence(s)"
    return {"sentences": sentences, "status": status, "notes": notes,
            "history": [step("answer", summary)]}


def _extractive(evidence: list[EvidenceItem]) -> list[AnswerSentence]:
    """Fallback answer: the first found quotes, each citing itself (then judged like any)."""
    chosen = [e for e in evidence if _usable(e) and e.kind == "quote"]
    return [AnswerSentence(text=f"\u201c{e.evidence.quote or e.evidence.matched_text}\u201d",
                           cites=[e.id])
            for e in chosen[:EXTRACTIVE_SENTENCES]]


def _disagreements(sentences: list[AnswerSentence],
                   contradictions: list[Contradiction]) -> list[AnswerSentence]:
    """Sentences stating each disagreement the answer does not already cite on both sides."""
    added = []
    for c in contradictions:
        if any(c.first in s.cites and c.second in s.cites for s in sentences):
            continue
        years = (f" ({c.first_year or 'n.d.'} vs {c.second_year or 'n.d.'})"
                 if c.first_year or c.second_year else "")
        added.append(AnswerSentence(text=f"The sources disagree{years}: {c.note}.",
                                    cites=[c.first, c.second], composed=True))
    return added


async def verify_citations(state: QAState, runtime: Runtime[QAContext]) -> dict[str, Any]:
    """Re-check every citation against its sentence (code), let the checker judge whether
    the cited text supports THAT sentence, and drop the sentences it does not support.

    When no sentence survives the answer is 'insufficient evidence'; the evidence found
    stays in the report either way."""
    by_id = {e.id: e for e in state.get("evidence", [])}
    papers = PaperCache(runtime)
    cited = [_recheck(runtime, papers, by_id, s) for s in state.get("sentences", [])]
    items = [SupportItem(s.text, tuple(c.evidence for c in s.citations if c.evidence.found),
                         key=str(n), floor=not s.composed) for n, s in enumerate(cited, 1)]
    judged = await judge_support(runtime.context.gateway, items, node="verify_citations")
    checked = [_with_support(s, item) for s, item in zip(cited, judged.items, strict=True)]
    kept = [s for s in checked if s.verified or _computed_only(s)]
    dropped = [s for s in checked if s not in kept]
    status = state.get("status", "insufficient_evidence")
    notes = [f"verify_citations: {n}" for n in judged.notes]
    if dropped:
        notes.append(f"{len(dropped)} answer sentence(s) dropped: their citations do not "
                     "support them (listed under 'Dropped')")
    if not kept:
        status = "insufficient_evidence"
    found = sum(c.evidence.found for s in checked for c in s.citations)
    supported = sum(c.evidence.verified for s in checked for c in s.citations)
    total = sum(len(s.citations) for s in checked)
    return {"sentences": kept, "dropped": dropped, "status": status, "notes": notes,
            "history": [step("verify_citations",
                             f"{total} citation(s): {found} found, {supported} supported; "
                             f"{len(kept)} sentence(s) kept, {len(dropped)} dropped; {status}")]}


def _recheck(runtime: Runtime[QAContext], papers: PaperCache, by_id: dict[str, EvidenceItem],
             sentence: AnswerSentence) -> AnswerSentence:
    """The sentence with each citation re-checked by code against the sentence."""
    claim = sentence.text if len(sentence.cites) == 1 else ""
    citations = [_check(runtime, papers, by_id.get(cid), cid, claim) for cid in sentence.cites]
    return sentence.model_copy(update={"citations": [_verbatim(sentence, c) for c in citations]})


def _verbatim(sentence: AnswerSentence, citation: Citation) -> Citation:
    """An extractive sentence that IS its found citation's quote is supported by code."""
    quote = citation.evidence.quote or citation.evidence.matched_text
    if not (citation.evidence.found and quote and sentence.text.strip(_QUOTES) == quote):
        return citation
    return citation.model_copy(update={"evidence": citation.evidence.with_support(Support(
        verdict="supported", by="code", reason="the sentence quotes the cited text verbatim"))})


def _with_support(sentence: AnswerSentence, item: SupportItem) -> AnswerSentence:
    """Judged evidence back into the citations, and the sentence's own verdict."""
    judged = iter(item.evidence)
    citations = [c.model_copy(update={"evidence": next(judged)}) if c.evidence.found else c
                 for c in sentence.citations]
    found = [c.evidence for c in citations if c.evidence.found]
    verdict = claim_support(found)
    deciding = next((e for e in found if e.support.verdict == verdict), None)
    if not sentence.cites:
        reason = "cites no evidence"
    elif not found:
        reason = "; ".join(r for c in citations for r in c.evidence.reasons) or "nothing found"
    else:
        reason = deciding.support.reason if deciding is not None else ""
    return sentence.model_copy(update={
        "citations": citations, "support": verdict if found else "unchecked", "reason": reason,
        "verified": bool(found) and verdict == "supported"})


def _computed_only(sentence: AnswerSentence) -> bool:
    """A sentence resting only on calculator results computed from found evidence."""
    return bool(sentence.citations) and all(
        c.evidence.anchor is None and c.evidence.support.verdict == "supported"
        and c.evidence.support.by == "code" for c in sentence.citations)


def _check(runtime: Runtime[QAContext], papers: PaperCache, item: EvidenceItem | None,
           cited: str, claim: str) -> Citation:
    if item is None:
        return Citation(evidence_id=cited, evidence=Evidence(
            quote="", reasons=[f"cites {cited!r}, which is not in the evidence table"]))
    if item.kind != "quote":
        return Citation(evidence_id=item.id, paper_id=item.paper_id, evidence=item.evidence)
    try:
        paper = papers.get(item.paper_id)
    except NotFoundError:
        return Citation(evidence_id=item.id, paper_id=item.paper_id, evidence=Evidence(
            quote=item.evidence.quote, cited=item.evidence.cited,
            reasons=["the cited paper is no longer in the library"]))
    grounder = runtime.context.grounder
    original = item.evidence
    evidence = (grounder.cite(paper, original.cited, original.quote, claim=claim)
                if original.cited else grounder.ground(paper, original.quote, claim=claim or None))
    return Citation(evidence_id=item.id, paper_id=item.paper_id, evidence=evidence)

