"""The export formats, one table: adding a format is one row (name, label, media type, file
suffix, writer). The CLI's ``--format``, the API's ``GET /api/export`` and the web UI's
export links are derived from it.

Light on purpose (the standard library only at import time): the CLI builds its ``--help``
from it, and the writers import the interchange modules when they run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from papermind.errors import InputError

if TYPE_CHECKING:
    from papermind.domain.works import WorkMetadata

KeyedWork = tuple[str, "WorkMetadata"]
"""A work under its citation key."""


def _bibtex(works: list[KeyedWork]) -> str:
    from papermind.interchange.bibtex import metadata_fields, write_bibtex

    return write_bibtex((kind, key, fields) for key, meta in works
                        for kind, fields in [metadata_fields(meta)])


def _csl_json(works: list[KeyedWork]) -> str:
    import json

    from papermind.interchange.csl import to_csl

    return json.dumps([to_csl(key, meta) for key, meta in works], ensure_ascii=False,
                      indent=2) + "\n"


def _ris(works: list[KeyedWork]) -> str:
    from papermind.interchange.ris import to_ris

    return to_ris(works)


@dataclass(frozen=True)
class ExportFormat:
    """One export format."""

    name: str
    """What users type: ``--format NAME``, ``?format=NAME``."""
    label: str
    """Its usual name, shown in the web UI."""
    media_type: str
    suffix: str
    """The download's file suffix."""
    write: Callable[[list[KeyedWork]], str]


EXPORT_FORMATS: dict[str, ExportFormat] = {f.name: f for f in (
    ExportFormat("bibtex", "BibTeX", "application/x-bibtex", ".bib", _bibtex),
    ExportFormat("csl-json", "CSL-JSON", "application/vnd.citationstyles.csl+json", ".json",
                 _csl_json),
    ExportFormat("ris", "RIS", "application/x-research-info-systems", ".ris", _ris),
)}
FORMATS: tuple[str, ...] = tuple(EXPORT_FORMATS)


def format_names(*, labels: bool = False) -> str:
    """'bibtex, csl-json or ris' ('BibTeX, CSL-JSON or RIS' with ``labels``), for help texts."""
    names = [f.label for f in EXPORT_FORMATS.values()] if labels else list(FORMATS)
    return " or ".join(filter(None, (", ".join(names[:-1]), names[-1])))


def export_format(name: str) -> ExportFormat:
    """The row of format ``name``; InputError naming the known ones otherwise."""
    try:
        return EXPORT_FORMATS[name]
    except KeyError:
        raise InputError(f"unknown format {name!r} (use {', '.join(FORMATS)})") from None
