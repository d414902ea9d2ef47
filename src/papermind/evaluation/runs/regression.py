"""QA regression runs: questions with expected facts and source papers, scored per answer.

Accuracy is the share of expected facts present in the answer (verified accuracy: in its
verified sentences only); source recall the share of expected papers among the papers of the
answer's verified citations. Runs against whatever
endpoint the settings configure (the scripted fake model in CI, for plumbing).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError, field_validator

from papermind.domain.answer import QAReport
from papermind.errors import InputError
from papermind.services.checkpoints import memory_checkpointer
from papermind.services.qa import QAParts, answer_question

_PUNCT = re.compile(r"[^\w\s]")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")


class RegressionQuestion(BaseModel):
    """One line of a question set."""

    id: str
    question: str
    facts: list[list[str]] = Field(description="each fact: accepted alternatives")
    sources: list[str] = Field(default_factory=list, description="id prefix, file stem or title")
    papers: list[str] = Field(default_factory=list, description="optional scope")
    deep: bool = False
    origin: dict[str, Any] = Field(default_factory=dict,
                                   description="the dev-data record it was built from")

    @field_validator("facts", mode="before")
    @classmethod
    def _alternatives(cls, value: object) -> object:
        if isinstance(value, list):
            return [[v] if isinstance(v, str) else v for v in value]
        return value


@dataclass(frozen=True)
class PaperName:
    """How a stored paper can be named in a question set."""

    id: str
    source_name: str = ""
    title: str = ""

    def matches(self, name: str) -> bool:
        wanted = name.strip().lower()
        stem = Path(self.source_name).stem.lower()
        return bool(wanted) and (self.id.startswith(wanted) or wanted in
                                 (stem, self.source_name.lower(), self.title.strip().lower()))


@dataclass(frozen=True)
class QuestionScore:
    id: str
    accuracy: float
    verified_accuracy: float
    source_recall: float
    status: str
    missing_facts: list[str]
    missing_sources: list[str]
    answer: str
    tokens: int


@dataclass
class RegressionResult:
    scores: list[QuestionScore] = field(default_factory=list)

    @property
    def accuracy(self) -> float:
        return sum(s.accuracy for s in self.scores) / len(self.scores) if self.scores else 0.0

    @property
    def verified_accuracy(self) -> float:
        return (sum(s.verified_accuracy for s in self.scores) / len(self.scores)
                if self.scores else 0.0)

    @property
    def source_recall(self) -> float:
        return (sum(s.source_recall for s in self.scores) / len(self.scores)
                if self.scores else 0.0)

    def to_dict(self) -> dict[str, object]:
        return {"questions": len(self.scores), "accuracy": round(self.accuracy, 4),
                "verified_accuracy": round(self.verified_accuracy, 4),
                "source_recall": round(self.source_recall, 4),
                "scores": [s.__dict__ for s in self.scores]}


def load_questions(path: Path) -> list[RegressionQuestion]:
    """Questions from a JSON-lines file (blank lines and '#' comments skipped)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as err:
        raise InputError(f"cannot read question set {path}: {err.strerror}") from err
    questions = []
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            questions.append(RegressionQuestion.model_validate(json.loads(line)))
        except (json.JSONDecodeError, ValidationError) as err:
            raise InputError(f"{path.name} line {number}: not a valid question "
                             f"({str(err).splitlines()[0]})") from err
    if not questions:
        raise InputError(f"{path} holds no questions")
    return questions


def normalize(text: str) -> str:
    """Case, punctuation, thousands separators and spacing folded."""
    return " ".join(_PUNCT.sub(" ", _THOUSANDS.sub("", text.lower())).split())


def fact_present(alternatives: Sequence[str], answer: str) -> bool:
    have = f" {normalize(answer)} "
    return any(f" {normalize(a)} " in have for a in alternatives if normalize(a))


def score(question: RegressionQuestion, report: QAReport,
          names: Sequence[PaperName]) -> QuestionScore:
    """Accuracy and source recall of one report."""
    answer = report.text
    missing = [alts[0] for alts in question.facts if not fact_present(alts, answer)]
    accuracy = 1 - len(missing) / len(question.facts) if question.facts else 1.0
    verified = " ".join(s.text for s in report.sentences if s.verified)
    held = [alts for alts in question.facts if fact_present(alts, verified)]
    verified_accuracy = len(held) / len(question.facts) if question.facts else 1.0
    cited = [n for n in names if n.id in report.source_papers]
    unfound = [s for s in question.sources if not any(n.matches(s) for n in cited)]
    recall = 1 - len(unfound) / len(question.sources) if question.sources else 1.0
    tokens = sum(v for k in ("tokens_in", "tokens_out")
                 if isinstance(v := report.usage.get(k, 0), int))
    return QuestionScore(question.id, accuracy, verified_accuracy, recall, report.status,
                         missing, unfound, answer, tokens)


def resolve_names(names: Sequence[PaperName], wanted: Sequence[str]) -> list[str]:
    """Paper ids for names in a question's scope (InputError for an unknown one)."""
    ids = []
    for name in wanted:
        found = [n.id for n in names if n.matches(name)]
        if len(found) != 1:
            raise InputError(f"scope {name!r} matches {len(found)} papers in the library")
        ids.append(found[0])
    return ids


async def run_regression(parts: QAParts, questions: Sequence[RegressionQuestion],
                         names: Sequence[PaperName], *, deep: bool = False,
                         on_score: Callable[[QuestionScore], None] | None = None
                         ) -> RegressionResult:
    """Ask every question (deep when ``deep`` or the question says so) and score it."""
    result = RegressionResult()
    for question in questions:
        report = await answer_question(
            parts, question.question, deep=deep or question.deep,
            paper_ids=resolve_names(names, question.papers), checkpointer=memory_checkpointer())
        scored = score(question, report, names)
        result.scores.append(scored)
        if on_score is not None:
            on_score(scored)
    return result
