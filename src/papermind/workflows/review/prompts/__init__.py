"""The panel's prompts, one Markdown file per LLM node, variables checked at import."""

from __future__ import annotations

from pathlib import Path

from papermind.llm import PromptTemplate

_HERE = Path(__file__).parent
_REVIEWER_VARS = {"task", "paper", "max_comments"}
_VARIABLES: dict[str, set[str]] = {
    "editor": {"paper", "reviewers"},
    "contribution_reviewer": _REVIEWER_VARS,
    "methodology_reviewer": _REVIEWER_VARS,
    "experiment_reviewer": _REVIEWER_VARS,
    "devil": {"claims"},
    "meta": {"panel", "disagreements"},
}

PROMPTS: dict[str, PromptTemplate] = {
    name: PromptTemplate.load(_HERE / f"{name}.md", variables)
    for name, variables in _VARIABLES.items()
}
