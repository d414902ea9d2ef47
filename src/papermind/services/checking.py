"""The `check` use case: a stored paper, a file, or a LaTeX project checked by code alone
(no model, no network)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from papermind.domain.check import CheckReport
from papermind.domain.paper import Paper
from papermind.errors import InputError
from papermind.grounding.paper_check import CheckOptions, check_paper, check_project, venues
from papermind.ingest.hidden_grade import addresses_reviewer
from papermind.ingest.latex_project import read_project
from papermind.reports.check import check_json
from papermind.services.library import LibraryService
from papermind.services.verification import load_paper

FAIL_LEVELS = ("none", "low", "medium", "high")


def check_options(venue: str | None = None, anonymous: bool = False) -> CheckOptions:
    """Options for a check; an unknown venue is bad input."""
    known = venues()
    if venue is not None and venue.lower() not in known:
        raise InputError(f"unknown venue {venue!r}; known: {', '.join(sorted(known))}")
    return CheckOptions(addresses=addresses_reviewer,
                        venue=known[venue.lower()] if venue else None, anonymous=anonymous)


def check_target(library: Callable[[], LibraryService], target: str, *,
                 venue: str | None = None, anonymous: bool = False) -> CheckReport:
    """Check a LaTeX project (a folder or a .tex), a file (parsed, not stored) or a stored
    paper (id or prefix); ``library`` is called only for the last two."""
    options = check_options(venue, anonymous)
    path = Path(target).expanduser()
    if path.is_dir() or path.suffix.lower() == ".tex":
        if not path.exists():
            raise InputError(f"no such file: {target}")
        return check_project(read_project(path), options)
    return check_paper(load_paper(library(), target), options)


def check_stored(paper: Paper, *, venue: str | None = None, anonymous: bool = False) -> CheckReport:
    """Check an already loaded paper (API, web, review)."""
    return check_paper(paper, check_options(venue, anonymous))


def check_stored_json(paper: Paper, *, venue: str | None = None,
                      anonymous: bool = False) -> dict[str, Any]:
    """``check_stored`` in the one JSON shape (the API's body)."""
    return check_json(check_stored(paper, venue=venue, anonymous=anonymous))


def venue_names() -> dict[str, str]:
    """venue key -> its name, for pickers."""
    return {key: v.name for key, v in venues().items()}
