"""The offline review's comments: one checked sentence per check finding.

With the bundled model the review is the check's findings (no scores, no recommendation).
The model writes one sentence per finding, from the finding and the paper's text at it (one
small call each); code keeps a sentence only when it passes the same checks as a reading's
explanations (``grounding.explanations``) and leaves the comment empty otherwise.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, field_validator

from papermind.domain.check import CheckFinding, CheckReport
from papermind.grounding.explanations import explanation_problems
from papermind.llm import Gateway, PromptTemplate, fence_untrusted
from papermind.workflows.model_output import structured_or_none

PROMPT = PromptTemplate.load(Path(__file__).parents[1] / "prompts" / "finding_comment.md",
                             {"finding", "text"})
MAX_COMMENTS = 12
"""Findings commented per review (most severe first): one small call each."""
_ORDER = {"high": 0, "medium": 1, "low": 2}


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
    chosen = sorted(range(len(check.findings)),
                    key=lambda i: (_ORDER[check.findings[i].severity], i))[:limit]
    answers = await asyncio.gather(*(_comment(gateway, check.findings[i]) for i in chosen))
    findings = list(check.findings)
    warnings: list[str] = []
    for index, (comment, notes) in zip(chosen, answers, strict=True):
        warnings += notes
        if comment:
            findings[index] = findings[index].model_copy(update={"comment": comment})
    return check.model_copy(update={"findings": findings}), warnings


async def _comment(gateway: Gateway, finding: CheckFinding) -> tuple[str, list[str]]:
    basis = " ".join(filter(None, [finding.message, finding.text, finding.fix]))
    messages = PROMPT.render(finding=fence_untrusted(finding.message, "FINDING"),
                             text=fence_untrusted(finding.text or "(the whole paper)", "PAPER"))
    out, warnings = await structured_or_none(gateway, "commenter", messages, CommentOut,
                                             node="finding_comments",
                                             outcome="the finding has no comment")
    comment = " ".join(s.strip() for s in out.sentences if s.strip()) if out else ""
    if comment and explanation_problems(comment, basis):
        return "", warnings
    return comment, warnings
