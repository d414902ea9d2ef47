"""Wire drafts: the small schemas each role's model fills in.

Length and count bounds are JSON-schema hints (``maxLength``, ``maxItems``): a
grammar-constrained local model cannot ramble past them, remote models read them as
guidance, and nothing is rejected for exceeding them (code trims what it keeps). Values a
weak model writes off-scale (confidence 85, score 12) are clamped, and kind synonyms
('weakness') are normalised, so weak answers degrade instead of failing validation.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, create_model, field_validator

from papermind.domain.review import Recommendation, Verdict
from papermind.workflows.citing import line_ids_schema
from papermind.workflows.review.panel import REVIEWERS, ReviewerSpec


def _text(description: str, limit: int, **kw: Any) -> Any:
    return Field(description=description, json_schema_extra={"maxLength": limit}, **kw)


def _items(description: str, limit: int) -> Any:
    return Field(default_factory=list, description=description,
                 json_schema_extra={"maxItems": limit})


def _unit(value: Any) -> Any:
    """Confidence in [0, 1]; small models often answer 0-100 or 0-10."""
    if isinstance(value, int | float):
        value = float(value)
        if value > 10:
            value /= 100
        elif value > 1:
            value /= 10
        return min(max(value, 0.0), 1.0)
    return value


def _score(value: Any) -> Any:
    """Scores on 1-10; clamp what a weak model writes outside the scale."""
    if isinstance(value, int | float):
        return min(max(float(value), 1.0), 10.0)
    return value


Unit = Annotated[float, BeforeValidator(_unit)]
"""A confidence, clamped to [0, 1]."""
Score = Annotated[float, BeforeValidator(_score)]
"""A score, clamped to 1-10."""

_KIND_SYNONYMS = {"weakness": "issue", "concern": "issue", "defect": "issue",
                  "challenge": "issue", "problem": "issue", "positive": "strength",
                  "pro": "strength", "counter": "attack", "threat": "attack"}


def _lines_required(schema: dict[str, Any]) -> None:
    """The schema asks for line ids on every comment (constrained decoding then writes them);
    validation still accepts a comment without them, which grounding reports as not found."""
    required = schema.setdefault("required", [])
    if "lines" not in required:
        required.append("lines")


class _Comment(BaseModel):
    """Fields every comment has. Unknown fields are rejected (and re-asked by the gateway)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=_lines_required)

    kind: str = Field(description="narrowed by each sender's schema")  # first in the schema
    target: str = _text("e.g. 'Section 3.1', 'Table 2', 'Eq. 4'", 60, default="")
    content: str = _text("the point, one or two sentences", 300)
    lines: str = Field(default="", description="line ids cited: PAGE:LINE or "
                       "PAGE:FIRST-LAST, several separated by ', '", json_schema_extra=line_ids_schema(several=True))
    quote: str = _text("optional short quote from those lines", 160, default="")
    confidence: Unit = Field(default=0.5, description="0 to 1")

    @field_validator("lines", mode="before")
    @classmethod
    def join_lines(cls, value: Any) -> Any:
        """Weak models send a list of ids ('["3:12", "3:13"]') or a bare number."""
        if isinstance(value, list):
            return ", ".join(str(v) for v in value)
        return str(value) if isinstance(value, int | float) else value

    @field_validator("kind", mode="before", check_fields=False)
    @classmethod
    def normalise_kind(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = value.strip().lower()
            return _KIND_SYNONYMS.get(value, value)
        return value


class ReviewerComment(_Comment):
    """A reviewer's comment: a strength or an issue, with the works it cites."""

    kind: Literal["strength", "issue"] = Field(description="'strength' or 'issue'")
    references: list[str] = _items("cited works, as printed", 3)


class DevilAttack(_Comment):
    """The devil's attack on one positive claim (no scores, no cited works)."""

    kind: Literal["attack"] = "attack"
    claim: str = _text("id of the claim attacked, e.g. 'C1'", 12, default="")


CommentDraft = ReviewerComment | DevilAttack


class _EditorBase(BaseModel):
    """Editor: structure summary and one task per reviewer (``<aspect>_task`` fields)."""

    summary: str = _text("what the paper claims and how it is organised", 400)

    def task_for(self, spec: ReviewerSpec) -> str:
        return str(getattr(self, spec.task_field, ""))


_TASK_FIELDS: dict[str, Any] = {
    spec.task_field: (str, _text(f"what the {spec.name.lower()} checks", 200, default=""))
    for spec in REVIEWERS}
EditorDraft: type[_EditorBase] = create_model("EditorDraft", __base__=_EditorBase,
                                              **_TASK_FIELDS)


class ReviewerDraft(BaseModel):
    """A reviewer's score, summary and comments."""

    score: Score = Field(description="1 (very poor) to 10 (excellent)")
    summary: str = _text("one or two sentences", 300)
    confidence: Unit = Field(default=0.5, description="0 to 1")
    comments: list[ReviewerComment] = _items("strengths and issues", 6)


class DevilDraft(BaseModel):
    """Devil's advocate: one attack per positive claim."""

    attacks: list[DevilAttack] = _items("one per claim", 16)


class ArbitrationDraft(BaseModel):
    disagreement: str = Field(description="id such as 'D1.1'")
    verdict: Verdict
    reason: str = _text("one sentence", 240, default="")


class ScoreChangeDraft(BaseModel):
    reviewer: str = Field(description="reviewer role whose score changes")
    from_score: Score
    to_score: Score
    reason: str = _text("why; a change without a reason is rejected", 240, default="")


class PlanDraft(BaseModel):
    action: str = _text("what the authors should do", 240)
    addresses: list[str] = _items("message ids it answers, e.g. 'M3'", 4)


class MetaDraft(BaseModel):
    """Meta-reviewer: arbitration, explicit score changes, recommendation, revision plan."""

    arbitrations: list[ArbitrationDraft] = _items("one per disagreement", 20)
    score_changes: list[ScoreChangeDraft] = _items("only real changes", 3)
    recommendation: Recommendation
    confidence: Unit = Field(default=0.5, description="0 to 1")
    revision_plan: list[PlanDraft] = _items("most important first", 5)
