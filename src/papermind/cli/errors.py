"""The one table from errors to exit codes and messages."""

from __future__ import annotations

from papermind import errors

EXIT_CODES: list[tuple[type[errors.PapermindError], int]] = [
    (errors.NotFoundError, 3),
    (errors.InputError, 2),
    (errors.ConfigError, 4),
    (errors.AuthError, 4),
    (errors.BudgetExceededError, 6),
    (errors.ProviderError, 5),
    (errors.ConflictError, 7),
    (errors.StorageError, 1),
    (errors.PapermindError, 1),
]
"""First match wins (subclasses before their parents). 1 is also 'not found' for `locate`."""


def exit_code(err: errors.PapermindError) -> int:
    for kind, code in EXIT_CODES:
        if isinstance(err, kind):
            return code
    return 1
