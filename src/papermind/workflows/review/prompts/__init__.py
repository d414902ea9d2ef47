"""The panel's prompts: ``<role>.md`` for every actor of the panel table, variables checked
at import."""

from __future__ import annotations

from pathlib import Path

from papermind.llm import PromptTemplate
from papermind.workflows.review.panel import ACTORS

_HERE = Path(__file__).parent

PROMPTS: dict[str, PromptTemplate] = {
    actor.role: PromptTemplate.load(_HERE / f"{actor.role}.md", set(actor.prompt_vars))
    for actor in ACTORS
}
