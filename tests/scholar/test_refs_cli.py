"""`papermind refs` against mock OpenAlex and Crossref: statuses, fields, retraction, cache."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.scholar.conftest import Mocks
from tests.scholar.record import (
    AUTHOR_YEAR,
    EXPECTED,
    EXPECTED_AUTHOR_YEAR,
    PAPER,
    write_pdf,
)
from tests.support.cli import CliRunner


@pytest.fixture
def paper(tmp_path: Path) -> Path:
    path = tmp_path / "paper.md"
    path.write_text(PAPER)
    return path


def test_refs_sorts_real_changed_retracted_and_invented_works(
        cli: CliRunner, mocks: Mocks, paper: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAPERMIND_SCHOLAR__ENABLED", "true")
    result = cli("refs", paper, "--json")
    assert result.code == 0, result.err
    refs = {r["index"]: r for r in result.json()["references"]}
    got = {i: (r["status"], sorted(m["field"] for m in r["mismatches"]), r["retracted"])
           for i, r in refs.items()}
    assert got == EXPECTED
    assert refs[3]["mismatches"] == [{"field": "year", "cited": "2001", "found": "1997"}]
    assert refs[1]["match"]["doi"] == "10.5555/3295222.3295349"
    assert set(refs[1]["match"]) == {"source", "id", "doi", "title", "authors", "year", "venue"}
    assert refs[7]["message"] == "not found in OpenAlex, Crossref: check it"
    assert refs[7]["match"] is None
    assert refs[10]["notes"] == ["its DOI names another work: 'Long short-term memory' (1997)"]
    assert any("published version exists" in n and "10.18653/v1/n19-1423" in n
               for n in refs[6]["notes"])
    assert mocks.sent() <= 4 * len(refs)

    before = mocks.sent()
    again = cli("refs", paper, "--json")
    assert again.json()["references"] == result.json()["references"]
    assert mocks.sent() == before  # every answer came from the library's cache


def test_refs_of_a_pdf(cli: CliRunner, mocks: Mocks, tmp_path: Path) -> None:
    result = cli("refs", write_pdf(tmp_path / "paper.pdf"), "--online", "--json")
    assert result.code == 0, result.err
    got = {r["index"]: (r["status"], sorted(m["field"] for m in r["mismatches"]), r["retracted"])
           for r in result.json()["references"]}
    assert got == EXPECTED


def test_refs_of_an_author_year_bibliography(cli: CliRunner, mocks: Mocks,
                                             tmp_path: Path) -> None:
    path = tmp_path / "apa.md"
    path.write_text(AUTHOR_YEAR)
    result = cli("refs", path, "--online", "--json")
    assert result.code == 0, result.err
    refs = {r["index"]: r for r in result.json()["references"]}
    assert {i: (r["status"], [m["field"] for m in r["mismatches"]]) for i, r in refs.items()} \
        == EXPECTED_AUTHOR_YEAR
    assert refs[5]["retracted"] is True
    assert refs[6]["match"]["doi"] == "10.18653/v1/n19-1423"  # the version cited
    assert "only as a preprint (2014" in refs[7]["notes"][0]


def test_refs_is_offline_by_default(cli: CliRunner, mocks: Mocks, paper: Path) -> None:
    result = cli("refs", paper)
    assert result.code == 4
    assert "scholarly sources are off" in result.err and "--online" in result.err
    assert mocks.sent() == 0


def test_online_flag_turns_the_sources_on_for_one_command(
        cli: CliRunner, mocks: Mocks, paper: Path) -> None:
    result = cli("refs", paper, "--online")
    assert result.code == 0, result.err
    assert "not found in OpenAlex, Crossref: check it" in result.out
    assert "RETRACTED" in result.out
    assert mocks.sent() > 0


def test_a_source_that_is_down_leaves_the_other_working(
        cli: CliRunner, mocks: Mocks, paper: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAPERMIND_SCHOLAR__ENABLED", "true")
    mocks.crossref.stop()
    result = cli("refs", paper, "--json")
    assert result.code == 0, result.err
    report = result.json()
    states = {s["name"]: s for s in report["sources"]}
    assert states["crossref"]["status"] == "down" and "Crossref is down" in states["crossref"]["message"]
    assert states["openalex"]["status"] == "ok"
    refs = {r["index"]: r for r in report["references"]}
    assert refs[1]["status"] == "verified" and refs[5]["retracted"] is True
    assert refs[7]["message"] == "not found in OpenAlex: check it"
    text = cli("refs", paper)
    assert "Crossref is down" in text.err


def test_a_rate_limited_source_is_waited_for(
        cli: CliRunner, mocks: Mocks, paper: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.scholar.mock_sources import Fault

    mocks.openalex.fail_next(Fault("429", retry_after="1"))
    mocks.crossref.fail_next(Fault("429", retry_after="1"))
    result = cli("refs", paper, "--online", "--json")
    assert result.code == 0, result.err
    assert all(s["status"] == "ok" for s in result.json()["sources"])
    got = {r["index"]: r["status"] for r in result.json()["references"]}
    assert got == {i: status for i, (status, _, _) in EXPECTED.items()}


def test_every_source_down_is_an_error_after_the_report(
        cli: CliRunner, mocks: Mocks, paper: Path) -> None:
    mocks.openalex.stop()
    mocks.crossref.stop()
    result = cli("refs", paper, "--online", "--json")
    assert result.code == 5
    assert "no scholarly source could be reached" in result.err
    assert {r["status"] for r in result.json()["references"]} == {"skipped"}
    assert "not checked: OpenAlex, Crossref could not be reached" in result.out


def test_refs_of_a_stored_paper(cli: CliRunner, mocks: Mocks, paper: Path,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    added = cli("add", paper, "--json")
    assert added.code == 0, added.err
    paper_id = added.json()[0]["paper_id"]
    result = cli("refs", paper_id[:8], "--online", "--json")
    assert result.code == 0, result.err
    assert result.json()["paper_id"] == paper_id
    assert len(result.json()["references"]) == len(EXPECTED)
