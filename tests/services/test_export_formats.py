"""Export formats are one table: a row is all a format needs to be written and named."""

from __future__ import annotations

import pytest

from papermind.domain.works import WorkMetadata
from papermind.errors import InputError
from papermind.services import export_formats
from papermind.services.export_formats import EXPORT_FORMATS, ExportFormat, export_format
from papermind.services.exports import render

WORKS = [("smith2020olid", WorkMetadata(title="OLID", year=2020))]


def test_the_rows_keep_the_names_users_type() -> None:
    assert export_formats.FORMATS == ("bibtex", "csl-json", "ris")
    assert export_formats.format_names() == "bibtex, csl-json or ris"
    assert export_formats.format_names(labels=True) == "BibTeX, CSL-JSON or RIS"


def test_a_new_row_is_rendered_and_named(monkeypatch: pytest.MonkeyPatch) -> None:
    row = ExportFormat("keys", "Keys", "text/plain", ".txt",
                       lambda works: "".join(f"{key}\n" for key, _ in works))
    monkeypatch.setitem(EXPORT_FORMATS, "keys", row)
    monkeypatch.setattr(export_formats, "FORMATS", tuple(EXPORT_FORMATS))
    assert render(WORKS, "keys") == "smith2020olid\n"
    assert export_formats.format_names().endswith("ris or keys")


def test_an_unknown_format_names_the_known_ones() -> None:
    with pytest.raises(InputError, match="unknown format 'docx' \\(use bibtex, csl-json, ris\\)"):
        export_format("docx")
    assert "OLID" in render(WORKS, "ris")
