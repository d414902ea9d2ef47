"""The `check` use case: a stored paper, a file, or a LaTeX project checked by code alone
(no model). No network either, unless the scholarly sources are on (``--online``,
``?online=true`` or scholar.enabled): then the bibliography is also checked against them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from papermind.config import Settings
from papermind.domain.check import CheckReport
from papermind.domain.paper import Paper
from papermind.domain.scholar import ReferencesReport
from papermind.errors import InputError
from papermind.grounding.paper_check import check_project
from papermind.grounding.paper_check.scholarly import bib_references
from papermind.ingest.latex_project import read_project
from papermind.reports.check import to_json
from papermind.services.library import LibraryService
from papermind.services.paper_checks import (
    ReferenceCheck,
    check_loaded,
    check_options,
    check_stored,
)
from papermind.services.scholar import require_served_online
from papermind.services.verification import load_paper

FAIL_LEVELS = ("none", "low", "medium", "high")


class ScholarlyChecks(Protocol):
    """What ``scholarly_check`` needs: the settings and the bibliography checks."""

    settings: Settings

    @property
    def references(self) -> ReferenceChecker: ...


class ReferenceChecker(Protocol):
    def check_paper(self, paper: Paper, *, online: bool = False,
                    paper_id: str | None = None) -> ReferencesReport: ...


def scholarly_check(parts: ScholarlyChecks, online: bool) -> ReferenceCheck | None:
    """The bibliography check against the scholarly sources when they are on (``online``
    or scholar.enabled), through the library's cache; None when off: nothing is sent."""
    if not (online or parts.settings.scholar.enabled):
        return None
    return lambda paper: parts.references.check_paper(paper, online=True,
                                                      paper_id=paper.id or None)


def served_scholarly_check(parts: ScholarlyChecks, online: bool) -> ReferenceCheck | None:
    """As ``scholarly_check``, for a request to the server (API, web, MCP): only
    scholar.enabled turns the sources on; a client asking ``online`` while it is off gets an
    OfflineError and nothing is sent (a client cannot override the server's setting)."""
    if online:
        require_served_online(parts.settings.scholar)
    return scholarly_check(parts, online=False)


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
        project = read_project(path)
        if references is not None:  # the .bib entries, looked up as a paper's references
            options = replace(options, scholarly=references(
                Paper(id="", source_name=project.main, references=bib_references(project))))
        return check_project(project, options)
    return check_loaded(load_paper(library(), target), options, references)


def check_stored_json(paper: Paper, *, venue: str | None = None, anonymous: bool = False,
                      references: ReferenceCheck | None = None) -> dict[str, Any]:
    """``check_stored`` in the one JSON shape (the API's body)."""
    return to_json(check_stored(paper, venue=venue, anonymous=anonymous,
                                references=references))
