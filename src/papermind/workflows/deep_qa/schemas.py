"""Structured-output schemas of the deep QA nodes: lenient, so small models can fill them."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, field_validator

from papermind.domain.answer import PlanTask
from papermind.domain.chunk import SearchMode
from papermind.workflows.citing import line_ids_schema
from papermind.workflows.deep_qa.tools import DEFAULT_TOOL, TOOLS

_MODES = {"bm25", "dense", "hybrid"}


class TaskOut(BaseModel):
    """One planned sub-task."""

    id: str = ""
    question: str
    tool: str = DEFAULT_TOOL
    depends_on: list[str] = Field(default_factory=list)
    mode_hint: str | None = None
    paper_ids: list[str] = Field(default_factory=list)
    expression: str = ""

    @field_validator("depends_on", "paper_ids", mode="before")
    @classmethod
    def _listify(cls, value: Any) -> Any:
        if value is None:
            return []
        return [value] if isinstance(value, str) else value

    def to_task(self, index: int) -> PlanTask:
        tool = self.tool if self.tool in TOOLS else DEFAULT_TOOL
        hint = (self.mode_hint or "").lower()
        mode: SearchMode | None = hint if hint in _MODES else None  # type: ignore[assignment]
        return PlanTask(id=self.id.strip() or f"t{index}", question=self.question.strip(),
                        tool=tool, depends_on=[str(d).strip() for d in self.depends_on],
                        mode_hint=mode, paper_ids=list(self.paper_ids),
                        expression=self.expression.strip())


class PlanOut(BaseModel):
    """A plan: sub-tasks with dependencies and tools."""

    tasks: list[TaskOut] = Field(default_factory=list)


class TermsOut(BaseModel):
    """Synonyms and related terms for a query."""

    related_terms: list[str] = Field(default_factory=list)


class QuoteOut(BaseModel):
    """The lines of one passage that bear on the sub-question (a short quote optional)."""

    passage: int = 1
    lines: str = Field(default="", description="line ids: PAGE:LINE or PAGE:FIRST-LAST; "
                       "empty for a passage without line numbers",
                       json_schema_extra=line_ids_schema(several=True, optional=True))
    quote: str = Field(default="", description="optional: a few words copied from the lines")

    @field_validator("lines", "quote", mode="before")
    @classmethod
    def _text(cls, value: Any) -> Any:
        if isinstance(value, list):
            return ", ".join(str(v) for v in value)
        return "" if value is None else value


class DistillOut(BaseModel):
    """Quotes that bear on the sub-question."""

    quotes: list[QuoteOut] = Field(default_factory=list)


class ExpressionOut(BaseModel):
    """An arithmetic expression for the safe calculator."""

    expression: str


class PairOut(BaseModel):
    """Two evidence ids that disagree."""

    first: str
    second: str
    note: str = ""


class ContradictionsOut(BaseModel):
    """Pairs of evidence that contradict each other."""

    pairs: list[PairOut] = Field(default_factory=list)


class SentenceOut(BaseModel):
    """One answer sentence and the evidence ids it cites."""

    text: str
    cites: list[str] = Field(default_factory=list)

    @field_validator("cites", mode="before")
    @classmethod
    def _listify(cls, value: Any) -> Any:
        if value is None:
            return []
        return [value] if isinstance(value, str) else value


class AnswerOut(BaseModel):
    """A cited answer, or insufficient=true."""

    sentences: list[SentenceOut] = Field(default_factory=list)
    insufficient: bool = False
