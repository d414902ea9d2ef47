"""``eval qa``: QASPER-style answers and evidence, PubMedQA labels, the regression set.

Every question is asked of its own document (single-pass cited QA, or deep with ``deep``),
documents added to the library once. Per item, whichever gold it has is scored: token F1 of
the answer against the gold answers, evidence recall (share of gold paragraph lines that a
found citation covers), abstention on borrowed unanswerable questions, the yes/no/maybe
label read from the answer, and the regression set's facts and sources.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from papermind.domain.answer import QAReport
from papermind.errors import InputError
from papermind.evaluation import metrics as m
from papermind.evaluation.qa_sets import QAItem, QASet, pubmedqa_set, qasper_set
from papermind.evaluation.runs.loop import Item, Outcome
from papermind.evaluation.runs.regression import (
    PaperName,
    RegressionQuestion,
    load_questions,
    score,
)
from papermind.llm import Gateway
from papermind.services.container import Container
from papermind.services.qa import QAParts, answer_question, qa_parts

if TYPE_CHECKING:
    from papermind.evaluation.runs.jobs import EvalRequest

Dataset = Literal["qasper", "pubmedqa", "regression"]
LABELS = ("yes", "no", "maybe")
_LABEL = re.compile(r"\b(yes|no|maybe)\b", re.IGNORECASE)
DROP_POINTS = 5.0
"""A headline metric this many points (of 100) below the last stored run is flagged."""
HEADLINE = ("f1", "evidence_recall", "abstained", "label_correct", "fact_accuracy",
            "source_recall")


def regression_set(path: Path, data: Path) -> QASet:
    """The stored question set on the QASPER and PubMedQA documents it names."""
    questions = load_questions(path)
    pool = qasper_set(data).docs | pubmedqa_set(data).docs
    items = []
    for q in questions:
        scope = q.papers or q.sources
        doc = next((f"{n}.txt" for n in scope if f"{n}.txt" in pool), "")
        if not doc:
            raise InputError(f"{path.name}: question {q.id} names no known document {scope}")
        items.append(QAItem(id=q.id, question=q.question, doc=doc, facts=q.facts,
                            sources=q.sources, origin=q.origin))
    return QASet(items, {d: pool[d] for d in dict.fromkeys(i.doc for i in items)})


def load_set(dataset: str, data: Path, questions: Path | None) -> QASet:
    if dataset == "qasper":
        return qasper_set(data)
    if dataset == "pubmedqa":
        return pubmedqa_set(data)
    if dataset == "regression":
        if questions is None:
            raise InputError("the regression set needs --questions FILE")
        return regression_set(questions, data)
    raise InputError(f"unknown QA dataset {dataset!r}; use qasper, pubmedqa or regression")


class QAEvaluation:
    """Questions of one dataset, each asked of its own document."""

    kind = "qa"
    roles: tuple[str, ...] = ("planner", "distiller", "answerer", "checker")

    def __init__(self, container: Container, gateway: Gateway, dataset: str, data: Path, *,
                 deep: bool = False, questions: Path | None = None) -> None:
        self.container, self.gateway, self.dataset = container, gateway, dataset
        self.data, self.deep, self.questions = data, deep, questions
        self.set = load_set(dataset, data, questions)
        self._ids: dict[str, str] = {}
        self._parts: QAParts | None = None

    def items(self) -> list[Item]:
        return [Item(i.id, i.to_dict()) for i in self.set.items]

    def options(self) -> dict[str, Any]:
        return {"dataset": self.dataset, "deep": self.deep, "data": str(self.data),
                "questions": str(self.questions or "")}

    def estimate_tokens(self, item: Item) -> int:
        return (9000 if self.deep else 3500) + len(item.data["question"]) // 3

    def _paper_id(self, doc: str) -> str:
        if doc not in self._ids:
            folder = self.container.settings.home_dir / "eval" / "docs"
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / doc
            path.write_text(self.set.docs[doc], encoding="utf-8")
            added = self.container.library.add_file(path)
            if added.paper_id is None:
                raise InputError(f"could not add {doc}: {added.reason}")
            self._ids[doc] = added.paper_id
        return self._ids[doc]

    async def run_item(self, item: Item, job_id: str) -> Outcome:
        data = QAItem(**item.data)
        paper_id = self._paper_id(data.doc)
        if self._parts is None:
            self._parts = qa_parts(self.container, self.gateway)
        async with self.container.checkpointer() as saver:
            report = await answer_question(self._parts, data.question, deep=self.deep,
                                           paper_ids=[paper_id], job_id=job_id,
                                           checkpointer=saver)
        result = {"id": data.id, "doc": data.doc, "answer": report.text,
                  "status": report.status, "label": data.label,
                  "answerable": data.answerable,
                  "scores": item_scores(data, report, PaperName(paper_id, data.doc))}
        if data.label:
            result["predicted_label"] = predicted_label(report.text)
        return Outcome(result, *usage_numbers(report.usage))

    def summarize(self, results: list[dict[str, Any]]) -> dict[str, Any]:
        return qa_summary(results)


def item_scores(item: QAItem, report: QAReport, name: PaperName) -> dict[str, float]:
    """The per-item metrics its gold allows (0/1 or a share)."""
    answered = report.status != "insufficient_evidence" and bool(report.sentences)
    out = {"answered": float(answered)}
    if not item.answerable:
        out["abstained"] = float(not answered)
    elif item.golds and not item.label:
        out["f1"] = m.best_token_f1(report.text, item.golds) if answered else 0.0
    if item.evidence_lines:
        cited = {n for s in report.sentences for c in s.citations
                 if (a := c.evidence.anchor) is not None and c.evidence.found
                 for n in range(a.line_start, a.line_end + 1)}
        out["evidence_recall"] = m.evidence_recall(sorted(cited), item.evidence_lines)
    if item.label:
        out["label_correct"] = float(predicted_label(report.text) == item.label)
    if item.facts:
        question = RegressionQuestion(id=item.id, question=item.question, facts=item.facts,
                                      sources=item.sources)
        got = score(question, report, [name])
        out.update(fact_accuracy=got.accuracy, verified_accuracy=got.verified_accuracy,
                   source_recall=got.source_recall)
    return out


def usage_numbers(usage: dict[str, object]) -> tuple[int, float]:
    """(tokens in + out, cost) of a report's usage."""
    def number(key: str) -> float:
        value = usage.get(key, 0)
        return float(value) if isinstance(value, int | float) else 0.0
    return int(number("tokens_in") + number("tokens_out")), number("cost_usd")


def predicted_label(answer: str) -> str:
    """The first yes / no / maybe the answer states ('none' without one)."""
    found = _LABEL.search(answer)
    return found.group(1).lower() if found else "none"


def qa_summary(results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Mean of every per-item score with a bootstrap interval; label accuracy and macro-F1."""
    keys = sorted({k for r in results for k in r["scores"]})
    out: dict[str, Any] = {"questions": len(results), "metrics": {}}
    for key in keys:
        values = [float(r["scores"][key]) for r in results if key in r["scores"]]
        interval = m.bootstrap_ci(m.mean, values)
        out["metrics"][key] = {"value": interval.value, "low": interval.low,
                               "high": interval.high, "n": len(values)}
    labelled = [r for r in results if r.get("label")]
    if labelled:
        truth = [r["label"] for r in labelled]
        guess = [r.get("predicted_label", "none") for r in labelled]
        out["metrics"]["label_macro_f1"] = {"value": m.macro_f1(truth, guess, LABELS),
                                            "n": len(labelled)}
    return out


def regressions(summary: dict[str, Any], previous: dict[str, Any] | None,
                points: float = DROP_POINTS) -> list[str]:
    """Lines for headline metrics that fell more than ``points`` (of 100) since ``previous``."""
    if not previous:
        return []
    lines = []
    for key in HEADLINE:
        now = summary.get("metrics", {}).get(key, {}).get("value")
        then = previous.get("metrics", {}).get(key, {}).get("value")
        if now is None or then is None or math.isnan(now) or math.isnan(then):
            continue
        if (then - now) * 100 > points:
            lines.append(f"REGRESSION {key}: {then:.3f} -> {now:.3f} "
                         f"({(now - then) * 100:+.1f} points; limit {points:g})")
    return lines


def evaluation(container: Container, gateway: Gateway, request: EvalRequest,
               data: Path) -> QAEvaluation:
    """`papermind eval qa`: the request's dataset under ``data``."""
    return QAEvaluation(container, gateway, request.dataset, data, deep=request.deep,
                        questions=request.questions)
