"""QA evaluation sets built from the shared dev data, each question traceable to its record.

- ``qasper``: the QASPER subset (LEval's scientific_qa: full text, questions, gold answers).
  The gold evidence is the paragraph that holds the gold answer verbatim (QASPER's own
  evidence annotations are not in the subset); such a paragraph exists for about a third.
  One question per paper is asked of the NEXT paper too, where its answer does not occur:
  the gold there is 'unanswerable' (detection is scored by abstention).
- ``pubmedqa``: PQA-L dev: the question against its own abstract; gold label yes/no/maybe.
- a regression set (JSON lines, ``evaluation/runs/regression.py`` format) on those same documents.

Documents are named ``qasper_NN.txt`` (record NN) and ``pubmedqa_<PMID>.txt``, so question
sets can name them as sources.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from papermind.evaluation.metrics import normalize_answer

QASPER = Path("qasper_subset") / "scientific_qa_dev.jsonl"
PUBMEDQA = Path("pubmedqa") / "pqal_dev.json"


@dataclass(frozen=True)
class QAItem:
    """One question with whatever gold its dataset has."""

    id: str
    question: str
    doc: str = ""
    golds: list[str] = field(default_factory=list)
    evidence_lines: list[int] = field(default_factory=list)
    answerable: bool = True
    label: str = ""
    facts: list[list[str]] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    origin: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items()}


@dataclass
class QASet:
    items: list[QAItem]
    docs: dict[str, str]


def qasper_docs(data: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (data / QASPER).read_text(encoding="utf-8").splitlines()
            if line.strip()]


def qasper_set(data: Path) -> QASet:
    """Every QASPER question on its paper, plus one borrowed unanswerable per paper."""
    records = qasper_docs(data)
    docs = {f"qasper_{i:02d}.txt": r["input"] for i, r in enumerate(records)}
    items: list[QAItem] = []
    for i, record in enumerate(records):
        name = f"qasper_{i:02d}.txt"
        lines = record["input"].split("\n")
        for j, (question, answer) in enumerate(zip(record["instructions"], record["outputs"],
                                                   strict=False)):
            gold = answer.strip()
            items.append(QAItem(
                id=f"qasper-{i:02d}-{j:02d}", question=question, doc=name, golds=[gold],
                evidence_lines=evidence_lines(lines, gold),
                origin={"dataset": str(QASPER), "record": i, "question": j}))
        other = records[(i + 1) % len(records)]
        borrowed = _borrowable(other, normalize_answer(record["input"]))
        if borrowed is not None:
            j, question = borrowed
            items.append(QAItem(
                id=f"qasper-{i:02d}-unanswerable", question=question, doc=name,
                answerable=False, origin={"dataset": str(QASPER), "record": (i + 1) % len(records),
                                          "question": j, "asked_of": i}))
    return QASet(items, docs)


def evidence_lines(lines: list[str], answer: str) -> list[int]:
    """1-based numbers of the lines (paragraphs) that hold ``answer`` verbatim."""
    wanted = normalize_answer(answer)
    if len(wanted) < 3:
        return []
    return [n for n, text in enumerate(lines, start=1) if wanted in normalize_answer(text)]


def _borrowable(record: dict[str, Any], text: str) -> tuple[int, str] | None:
    for j, (question, answer) in enumerate(zip(record["instructions"], record["outputs"],
                                               strict=False)):
        gold = normalize_answer(answer)
        if len(gold.split()) <= 4 and gold and gold not in text and \
                answer.strip().lower() not in ("yes", "no"):
            return j, question
    return None


def pubmedqa_set(data: Path) -> QASet:
    """PQA-L dev questions, each asked of its own abstract, in PMID order."""
    records = json.loads((data / PUBMEDQA).read_text(encoding="utf-8"))
    items, docs = [], {}
    for pmid in sorted(records):
        record = records[pmid]
        name = f"pubmedqa_{pmid}.txt"
        docs[name] = pubmed_text({**record, "pmid": pmid})
        items.append(QAItem(id=f"pubmedqa-{pmid}", question=record["QUESTION"], doc=name,
                            label=record["final_decision"], golds=[record["LONG_ANSWER"]],
                            origin={"dataset": str(PUBMEDQA), "record": pmid}))
    return QASet(items, docs)


def pubmed_text(record: dict[str, Any]) -> str:
    """An abstract as a small text paper: its labelled parts as sections, no conclusion."""
    parts = [f"## {label.title()}\n\n{text}" for label, text in
             zip(record.get("LABELS", []), record["CONTEXTS"], strict=False)]
    return f"# PubMed abstract {record.get('pmid', '')}".rstrip() + "\n\n" + "\n\n".join(parts) + "\n"
