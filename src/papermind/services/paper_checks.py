"""The model-free check of a loaded paper, shared by the `check` use case and the review
(whose panel starts from it): options, one call, venue names. No model, no network unless
a ``ReferenceCheck`` is given."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from papermind.domain.check import CheckReport
from papermind.domain.paper import Paper
from papermind.domain.scholar import ReferencesReport
from papermind.errors import InputError
from papermind.grounding.paper_check import CheckOptions, check_paper, venues
from papermind.ingest.hidden_grade import addresses_reviewer

ReferenceCheck = Callable[[Paper], ReferencesReport]
"""Checks a paper's bibliography against the scholarly sources (sends lookups)."""


def check_options(venue: str | None = None, anonymous: bool = False) -> CheckOptions:
    """Options for a check; an unknown venue is bad input."""
    known = venues()
    if venue is not None and venue.lower() not in known:
        raise InputError(f"unknown venue {venue!r}; known: {', '.join(sorted(known))}")
    return CheckOptions(addresses=addresses_reviewer,
                        venue=known[venue.lower()] if venue else None, anonymous=anonymous)


def check_stored(paper: Paper, *, venue: str | None = None, anonymous: bool = False,
                 references: ReferenceCheck | None = None) -> CheckReport:
    """Check an already loaded paper (API, web, review)."""
    return check_loaded(paper, check_options(venue, anonymous), references)


def check_loaded(paper: Paper, options: CheckOptions,
                 references: ReferenceCheck | None) -> CheckReport:
    """Check ``paper`` with ``options``; its bibliography online too when ``references``."""
    if references is not None:
        options = replace(options, scholarly=references(paper))
    return check_paper(paper, options)


def venue_names() -> dict[str, str]:
    """venue key -> its name, for pickers."""
    return {key: v.name for key, v in venues().items()}
