"""Shared base for domain models: frozen pydantic data, no I/O."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Frozen(BaseModel):
    """Immutable data object; copy with ``model_copy(update=...)`` to change."""

    model_config = ConfigDict(frozen=True, extra="forbid")
