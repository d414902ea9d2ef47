"""The exception tree. Every message is safe to show a user.

A normal bad outcome (a quote not found, an unsupported claim) is data, not an exception;
these are for failures that stop an operation. Interfaces translate them at the edges with
one table each (``cli/errors.py``, ``api/errors.py``).
"""

from __future__ import annotations


class PapermindError(Exception):
    """Root of PaperMind's errors; ``str(err)`` is a user-facing message."""

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message if not self.hint else f"{self.message} ({self.hint})"


class InputError(PapermindError):
    """The user's input (a file, a query, an argument) cannot be used."""


class IngestError(InputError):
    """A file could not be turned into a paper (not a PDF, encrypted, empty, image-only...)."""


class NotFoundError(PapermindError):
    """A paper, job or other named thing does not exist."""


class ConflictError(PapermindError):
    """The operation conflicts with the current state (e.g. a job already finished)."""


class StorageError(PapermindError):
    """A write failed for a reason of the machine, not of the input: no space left on the
    device, a read-only file system, an I/O error (``disk_writes.storage_fault``)."""


class ConfigError(PapermindError):
    """Settings are missing or inconsistent."""


class OfflineError(ConfigError):
    """Something needs the scholarly sources while they are off (the default)."""


class ProviderError(PapermindError):
    """A language-model or embedding endpoint failed after its retry budget."""


class StructuredOutputError(ProviderError):
    """The model never produced output valid for the requested schema."""

    def __init__(self, message: str, *, attempts: int, usage: dict[str, int] | None = None,
                 hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.attempts = attempts
        self.usage = usage or {}


class BudgetExceededError(PapermindError):
    """A job used more tokens than its budget allows; it stops cleanly."""

    def __init__(self, message: str, *, usage: dict[str, int] | None = None) -> None:
        super().__init__(message)
        self.usage = usage or {}


class AuthError(PapermindError):
    """Missing or wrong API token."""


class SourceDownError(ProviderError):
    """A scholarly source (OpenAlex, Crossref...) could not answer after its retries."""
