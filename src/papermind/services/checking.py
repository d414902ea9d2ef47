"""The `check` use case: a stored paper, a file, or a LaTeX project checked by code alone
(no model). No network either, unless the scholarly sources are on (``--online``,
``?online=true`` or scholar.enabled): then the bibliography is also checked against them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from papermind.domain.check import CheckReport
from papermind.domain.paper import Paper
from papermind.domain.scholar import ReferencesReport
from papermind.errors import InputError
from papermind.grounding.paper_check import CheckOptions, check_paper, check_project, venues
from papermind.ingest.hidden_grade import addresses_reviewer
from papermind.ingest.latex_project import read_project
from papermind.reports.check import check_json
from papermind.services.library import LibraryService
from papermind.services.verification import load_paper

if TYPE_CHECKING:
    from papermind.services.container import Container

FAIL_LEVELS = ("none", "low", "medium", "high")
ReferenceCheck = Callable[[Paper], ReferencesReport]
"""Checks a paper's bibliography against the scholarly sources (sends lookups)."""
PROJECT_ONLINE_NOTE = ("the bibliography of a LaTeX project is checked against the scholarly "
                        "sources on the compiled PDF (papermind check main.pdf --online)")


def scholarly_check(container: Container, online: bool) -> ReferenceCheck | None:
    """The bibliography check against the scholarly sources when they are on (``online``
    or scholar.enabled), through the library's cache; None when off: nothing is sent."""
    if not (online or container.settings.scholar.enabled):
        return None
    return lambda paper: container.references.check_paper(paper, online=True,
                                                          paper_id=paper.id or None)


def check_options(venue: str | None = None, anonymous: bool = False) -> CheckOptions:
    """Options for a check; an unknown venue is bad input."""
    known = venues()
    if venue is not None and venue.lower() not in known:
        raise InputError(f"unknown venue {venue!r}; known: {', '.join(sorted(known))}")
    return CheckOptions(addresses=addresses_reviewer,
                        venue=known[venue.lower()] if venue else None, anonymous=anonymous)


def check_target(library: Callable[[], LibraryService], target: str, *,
                 venue: str | None = None, anonymous: bool = False,
                 references: ReferenceCheck | None = None) -> CheckReport:
    """Check a LaTeX project (a folder or a .tex), a file (parsed, not stored) or a stored
    paper (id or prefix); ``library`` is called only for the last two, ``references``
    (online only) only for them too."""
    options = check_options(venue, anonymous)
    path = Path(target).expanduser()
    if path.is_dir() or path.suffix.lower() == ".tex":
        if not path.exists():
            raise InputError(f"no such file: {target}")
        report = check_project(read_project(path), options)
        return report if references is None else \
            report.model_copy(update={"notes": [*report.notes, PROJECT_ONLINE_NOTE]})
    return _check(load_paper(library(), target), options, references)


def check_stored(paper: Paper, *, venue: str | None = None, anonymous: bool = False,
                 references: ReferenceCheck | None = None) -> CheckReport:
    """Check an already loaded paper (API, web, review)."""
    return _check(paper, check_options(venue, anonymous), references)


def check_stored_json(paper: Paper, *, venue: str | None = None, anonymous: bool = False,
                      references: ReferenceCheck | None = None) -> dict[str, Any]:
    """``check_stored`` in the one JSON shape (the API's body)."""
    return check_json(check_stored(paper, venue=venue, anonymous=anonymous,
                                   references=references))


def _check(paper: Paper, options: CheckOptions, references: ReferenceCheck | None) -> CheckReport:
    if references is not None:
        options = replace(options, scholarly=references(paper))
    return check_paper(paper, options)


def venue_names() -> dict[str, str]:
    """venue key -> its name, for pickers."""
    return {key: v.name for key, v in venues().items()}
