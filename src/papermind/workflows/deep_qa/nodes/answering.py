"""Answering nodes: detect contradictions, answer with citations, verify every citation."""

from __future__ import annotations

import re
from typing import Any

from langgraph.runtime import Runtime

from papermind.domain.answer import AnswerSentence, Citation, Contradiction, EvidenceItem
from papermind.domain.evidence import Evidence
from papermind.errors import NotFoundError
from papermind.llm import fence_untrusted
from papermind.workflows.deep_qa.context import QAContext
from papermind.workflows.deep_qa.nodes.common import PaperCache, ask, evidence_table, prompt, step
from papermind.workflows.deep_qa.schemas import AnswerOut, ContradictionsOut
from papermind.workflows.deep_qa.state import QAState

_CONTRA_VARS = frozenset({"question", "evidence"})
_ANSWER_VARS = frozenset({"question", "evidence", "contradictions"})
_ID = re.compile(r"\bE\s*(\d+)\b", re.IGNORECASE)
_WORDY = re.compile(r"^(?!\s*<[^>]*>\s*$).*\w\w", re.DOTALL)
"""A real sentence: two word characters, and not an unfilled '<placeholder>'."""
MAX_PROMPT_EVIDENCE = 12
EXTRACTIVE_SENTENCES = 3


def _for_prompt(evidence: list[EvidenceItem], *, verified_only: bool = False
                ) -> list[EvidenceItem]:
    """At most MAX_PROMPT_EVIDENCE items, verified first, in table order.

    ``verified_only`` leaves unverified items out whenever some item is verified, so the
    answer can only rest on quotes grounding found in the papers.
    """
    if verified_only and any(e.evidence.verified for e in evidence):
        evidence = [e for e in evidence if e.evidence.verified]
    ranked = sorted(evidence, key=lambda e: (not e.evidence.verified, int(e.id[1:] or 0)))
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
        question=state["question"],
        evidence=evidence_table(_for_prompt(evidence, verified_only=True)),
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
    """Fallback answer: the first verified quotes, each citing itself."""
    chosen = [e for e in evidence if e.evidence.verified and e.kind == "quote"]
    return [AnswerSentence(text=f"\u201c{e.evidence.quote}\u201d", cites=[e.id])
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
                                    cites=[c.first, c.second]))
    return added


async def verify_citations(state: QAState, runtime: Runtime[QAContext]) -> dict[str, Any]:
    """Re-ground every cited quote against its paper; a sentence is verified if all are."""
    by_id = {e.id: e for e in state.get("evidence", [])}
    papers = PaperCache(runtime)
    checked = [_verify(runtime, papers, by_id, s) for s in state.get("sentences", [])]
    status = state.get("status", "insufficient_evidence")
    notes: list[str] = []
    if checked and status != "insufficient_evidence" and not any(s.verified for s in checked):
        quotes = [_verify(runtime, papers, by_id, s) for s in _extractive(state.get("evidence", []))]
        quotes = [s for s in quotes if s.verified]
        status = "extractive" if quotes else "insufficient_evidence"
        checked += quotes
        notes.append("no answer sentence could be verified against the papers"
                     + ("; the best verified quotes follow it" if quotes else ""))
    total = sum(len(s.citations) for s in checked)
    ok = sum(c.evidence.verified for s in checked for c in s.citations)
    return {"sentences": checked, "status": status, "notes": notes,
            "history": [step("verify_citations", f"{ok}/{total} citation(s) verified; "
                                                 f"{status}")]}


def _verify(runtime: Runtime[QAContext], papers: PaperCache, by_id: dict[str, EvidenceItem],
            sentence: AnswerSentence) -> AnswerSentence:
    claim = sentence.text if len(sentence.cites) == 1 else None
    citations = [_check(runtime, papers, by_id.get(cid), cid, claim) for cid in sentence.cites]
    verified = bool(citations) and all(c.evidence.verified for c in citations)
    return sentence.model_copy(update={"citations": citations, "verified": verified})


def _check(runtime: Runtime[QAContext], papers: PaperCache, item: EvidenceItem | None,
           cited: str, claim: str | None) -> Citation:
    if item is None:
        return Citation(evidence_id=cited, evidence=Evidence(
            quote="", reasons=[f"cites {cited!r}, which is not in the evidence table"]))
    if item.kind != "quote":
        return Citation(evidence_id=item.id, paper_id=item.paper_id, evidence=item.evidence)
    try:
        paper = papers.get(item.paper_id)
    except NotFoundError:
        return Citation(evidence_id=item.id, paper_id=item.paper_id, evidence=item.evidence.model_copy(
            update={"verified": False, "reasons": ["the cited paper is no longer in the library"]}))
    evidence = runtime.context.grounder.ground(paper, item.evidence.quote, claim=claim)
    return Citation(evidence_id=item.id, paper_id=item.paper_id, evidence=evidence)
