"""The offline review's comments: one checked sentence per check finding.

With the bundled model the review is the check's findings (no scores, no recommendation).
The model writes one sentence per finding, from the finding and the paper's text at it (one
small call each); code keeps a sentence only when it passes the same checks as a reading's
explanations (``grounding.explanations``). A finding without a kept comment says why
(``comment_note``): the sentence failed those checks (which ones), the model gave none, or
the finding has too little text for any sentence to pass, so the model is not asked at all.
When no finding could pass, the model is not run.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, field_validator

from papermind.domain.check import CheckFinding, CheckReport
from papermind.grounding.explanations import explanation_problems
from papermind.grounding.relatedness import content_keys
from papermind.llm import Gateway, PromptTemplate, fence_untrusted
from papermind.workflows.model_output import structured_or_none

PROMPT = PromptTemplate.load(Path(__file__).parents[1] / "prompts" / "finding_comment.md",
                             {"finding", "text"})
MAX_COMMENTS = 12
"""Findings commented per review (most severe first): one small call each."""
_ORDER = {"high": 0, "medium": 1, "low": 2}
MIN_BASIS_WORDS = 3
"""Distinct content words a finding (message, text, fix) needs for a comment to pass: a
comment must mostly use the finding's own words, and is at least four words long."""
NOT_RUN = ("finding_comments: no finding has enough text for a checked comment; the model "
           "was not run")


class CommentOut(BaseModel):
    """One sentence telling the author what to change."""

    sentences: list[str] = Field(default_factory=list, description="one short sentence",
                                 json_schema_extra={"minItems": 1, "maxItems": 1})

    @field_validator("sentences", mode="before")
    @classmethod
    def _listify(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) else [] if value is None else value


async def comment_findings(gateway: Gateway, check: CheckReport, *,
                           limit: int = MAX_COMMENTS) -> tuple[CheckReport, list[str]]:
    """``check`` with a checked comment on up to ``limit`` findings, and warnings."""
    ranked = sorted(range(len(check.findings)),
                    key=lambda i: (_ORDER[check.findings[i].severity], i))
    findings = list(check.findings)
    chosen = ranked[:limit]
    hopeless = {i for i in chosen if _too_thin(check.findings[i])}
    for index in hopeless:
        findings[index] = _noted(findings[index], "no comment: the finding has too little "
                                 "text for a checked comment, so the model was not asked")
    asked = [i for i in chosen if i not in hopeless]
    warnings: list[str] = [NOT_RUN] if chosen and not asked else []
    answers = await asyncio.gather(*(_comment(gateway, check.findings[i]) for i in asked))
    for index, (comment, note, notes) in zip(asked, answers, strict=True):
        warnings += notes
        update = {"comment": comment} if comment else {"comment_note": note}
        findings[index] = findings[index].model_copy(update=update)
    if asked:
        kept = sum(bool(findings[i].comment) for i in asked)
        warnings.append(f"finding_comments: kept {kept} of {len(asked)} model comments; each "
                        "finding without one says why")
    return check.model_copy(update={"findings": findings}), warnings


def _basis(finding: CheckFinding) -> str:
    return " ".join(filter(None, [finding.message, finding.text, finding.fix]))


def _too_thin(finding: CheckFinding) -> bool:
    return len(set(content_keys(_basis(finding)))) < MIN_BASIS_WORDS


def _noted(finding: CheckFinding, note: str) -> CheckFinding:
    return finding.model_copy(update={"comment_note": note})


async def _comment(gateway: Gateway, finding: CheckFinding) -> tuple[str, str, list[str]]:
    """(kept comment, or why there is none; the model's warnings)."""
    basis = _basis(finding)
    messages = PROMPT.render(finding=fence_untrusted(finding.message, "FINDING"),
                             text=fence_untrusted(finding.text or "(the whole paper)", "PAPER"))
    out, warnings = await structured_or_none(gateway, "commenter", messages, CommentOut,
                                             node="finding_comments",
                                             outcome="the finding has no comment")
    comment = " ".join(s.strip() for s in out.sentences if s.strip()) if out else ""
    if not comment:
        return "", "no comment: the model gave no usable sentence", warnings
    problems = explanation_problems(comment, basis)
    if problems:
        return "", "comment dropped: " + "; ".join(problems), warnings
    return comment, "", warnings
