"""The paper a command or a job names: a stored paper by id (or unique prefix), or a file
added to the library first. Shared by the reading and review use cases and the CLI."""

from __future__ import annotations

from pathlib import Path

from papermind.domain import Paper
from papermind.errors import InputError
from papermind.services.library import SUPPORTED_SUFFIXES, LibraryService


def resolve_paper(library: LibraryService, paper: str | Path) -> Paper:
    """A stored paper by id (or unique prefix), or a file path added to the library first."""
    path = Path(paper)
    if path.is_file():
        result = library.add_file(path)
        if result.status == "failed" or result.paper_id is None:
            raise InputError(result.reason or f"{path}: could not be added")
        return library.get(result.paper_id)
    if path.is_dir():
        raise InputError(f"{path}: is a folder; give one paper (a file or a library id)")
    if path.suffix.lower() in SUPPORTED_SUFFIXES or "/" in str(paper):
        raise InputError(f"{path}: no such file")
    return library.show(str(paper)).paper
