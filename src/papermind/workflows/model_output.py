"""The one policy for invalid model output, shared by every workflow.

The gateway re-asks a model with the validation error a bounded number of times. When a
model still gives no valid output, the step degrades instead of failing the job: it goes
on without that model's contribution (no points, no comments, no recommendation) or with a
deterministic fallback that code can justify (an extractive answer, the default reviewer
task), and it records a warning that says so in the report. Nothing is invented to fill
the gap. The job is not failed because a resume would meet the same (cached) reply again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel

from papermind.errors import StructuredOutputError

T = TypeVar("T", bound=BaseModel)


class StructuredModel(Protocol):
    """The part of papermind.llm.Gateway a workflow needs for structured calls."""

    async def structured(self, role: str, messages: Sequence[Any], schema: type[T],
                         *, node: str | None = None) -> T:
        ...


def invalid_output_warning(node: str, role: str, err: StructuredOutputError,
                           outcome: str) -> str:
    """The warning a step records when ``role`` gave no valid output; ``outcome`` says what
    the step did instead ('no points', 'used the deterministic fallback', ...)."""
    return (f"{node}: the {role} model gave no valid output ({err.attempts} attempts: "
            f"{err.message}); {outcome}")


async def structured_or_none(gateway: StructuredModel, role: str, messages: Sequence[Any],
                             schema: type[T], *, node: str,
                             outcome: str) -> tuple[T | None, list[str]]:
    """The model's valid reply and no warnings, or None and the policy's warning."""
    try:
        return await gateway.structured(role, messages, schema, node=node), []
    except StructuredOutputError as err:
        return None, [invalid_output_warning(node, role, err, outcome)]
