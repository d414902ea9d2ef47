"""The check on a LaTeX project: \\input / \\include followed, the .bib read, every finding
at the file and line an author edits."""

from __future__ import annotations

from pathlib import Path

import pytest

from papermind.domain.check import CheckReport
from papermind.grounding.paper_check import CheckOptions, check_project
from papermind.ingest.hidden_grade import addresses_reviewer
from papermind.ingest.latex_project import read_project

PROJECT = Path(__file__).parent / "check_fixtures" / "latex"


@pytest.fixture(scope="module")
def report() -> CheckReport:
    return check_project(read_project(PROJECT), CheckOptions(addresses=addresses_reviewer,
                                                             anonymous=True))


def _where(report: CheckReport, kind: str) -> list[str]:
    return [f.where() for f in report.findings if f.kind == kind]


def test_the_project_is_flattened_with_files_and_lines() -> None:
    project = read_project(PROJECT / "main.tex")
    files = [(ln.file, ln.line) for ln in project.lines]
    assert files[:10][-1] == ("main.tex", 10) and ("sections/intro.tex", 1) in files
    assert files.index(("sections/intro.tex", 7)) < files.index(("main.tex", 11))
    assert files.index(("sections/results.tex", 10)) < files.index(("main.tex", 12))
    assert [e.key for e in project.bib] == ["smith2020", "lee2019", "lee2019b", "zhou2018",
                                            "smith2020"]
    assert project.bib[1].source.label() == "refs.bib:8"
    assert "commentedout" not in " ".join(ln.text for ln in project.lines)


def test_citation_keys_with_no_entry(report: CheckReport) -> None:
    assert _where(report, "citation_without_entry") == ["sections/intro.tex:5"]


def test_bib_duplicates_and_incomplete_cited_entries(report: CheckReport) -> None:
    assert sorted(_where(report, "duplicate_entry")) == ["refs.bib:15", "refs.bib:27"]
    assert _where(report, "entry_missing_year") == ["refs.bib:22"]
    assert _where(report, "entry_missing_venue") == ["refs.bib:22"]


def test_refs_to_missing_labels_and_floats_never_referred_to(report: CheckReport) -> None:
    assert _where(report, "reference_to_missing_label") == ["sections/intro.tex:7"]
    assert _where(report, "figure_never_referenced") == ["sections/results.tex:8"]
    assert _where(report, "table_never_referenced") == []


def test_text_checks_read_the_source_lines(report: CheckReport) -> None:
    assert _where(report, "instruction_to_reviewers") == ["sections/intro.tex:6"]
    assert _where(report, "self_identifying") == ["sections/intro.tex:4"]
    assert _where(report, "author_identity") == ["main.tex:4"]
    assert all(f.anchor is None and f.source is not None
               for f in report.findings if f.kind != "venue_part_missing")


def test_a_folder_without_a_main_file_is_bad_input(tmp_path: Path) -> None:
    from papermind.errors import InputError

    (tmp_path / "notes.tex").write_text("no document class here\n")
    with pytest.raises(InputError):
        read_project(tmp_path)


def test_calibrated_kinds_are_at_most_medium_and_the_rest_keep_their_severity(
        report: CheckReport) -> None:
    """Severities measured on real papers: a .bib key defined twice is LOW (BibTeX keeps the
    first copy; 20 of 21 such findings were useless), the same work under two keys MEDIUM;
    an undefined label (the PDF prints '??') and a cite key with no entry stay HIGH."""
    severity = {(f.kind, f.where()): f.severity for f in report.findings}
    assert severity[("duplicate_entry", "refs.bib:27")] == "low"
    assert severity[("duplicate_entry", "refs.bib:15")] == "medium"
    assert severity[("reference_to_missing_label", "sections/intro.tex:7")] == "high"
    assert severity[("citation_without_entry", "sections/intro.tex:5")] == "high"
