"""`papermind check PAPER [--json] [--venue] [--anonymous] [--fail-on]` through the real
entry point: a stored paper, a file, a LaTeX project; exit codes from --fail-on."""

from __future__ import annotations

from pathlib import Path

from tests.support.cli import CliRunner, library_state

FIXTURES = Path(__file__).parents[1] / "grounding" / "check_fixtures"
DRAFT = FIXTURES / "draft.md"


def test_a_file_is_checked_without_storing_it(cli: CliRunner, home: Path) -> None:
    result = cli("check", DRAFT, "--json")
    assert result.code == 0, result.err  # --fail-on defaults to none
    out = result.json()
    kinds = {f["kind"] for f in out["findings"]}
    assert {"citation_without_entry", "reference_to_missing_label",
            "instruction_to_reviewers"} <= kinds
    assert "self_identifying" not in kinds  # only with --anonymous
    first = out["findings"][0]
    assert set(first) >= {"kind", "severity", "aspect", "message", "where", "text", "fix",
                          "anchor", "source"}
    missing = next(f for f in out["findings"] if f["kind"] == "citation_without_entry")
    assert missing["anchor"]["page"] == 1 and missing["anchor"]["line_start"] == 13
    assert missing["where"] == "p. 1, l. 13" and "Vellacott" in missing["text"]
    assert out["counts"]["high"] >= 2 and out["counts"]["medium"] >= 5  # calibrated ceilings
    assert library_state(home)[0] == []


def test_fail_on_sets_the_exit_code(cli: CliRunner) -> None:
    assert cli("check", DRAFT, "--fail-on", "high").code == 1
    assert cli("check", DRAFT, "--fail-on", "none").code == 0
    bad = cli("check", DRAFT, "--fail-on", "severe")
    assert bad.code == 2 and "--fail-on" in bad.err


def test_anonymous_and_venue(cli: CliRunner) -> None:
    out = cli("check", DRAFT, "--anonymous", "--venue", "neurips", "--json").json()
    kinds = {f["kind"] for f in out["findings"]}
    assert {"self_identifying", "author_identity", "acknowledgements"} <= kinds
    assert "venue_part_missing" in kinds and out["venue"] == "neurips" and out["anonymous"]
    bad = cli("check", DRAFT, "--venue", "nowhere")
    assert bad.code == 2 and "unknown venue" in bad.err


def test_the_table_names_where_and_what(cli: CliRunner) -> None:
    result = cli("check", DRAFT)
    assert result.code == 0
    assert "p. 1, l. 13" in result.out and "citation_without_entry" in result.out


def test_a_stored_paper_is_checked_by_its_id(cli: CliRunner, home: Path) -> None:
    added = cli("add", DRAFT, "--json")
    assert added.code == 0, added.err
    paper_id = library_state(home)[0][0]
    out = cli("check", paper_id[:12], "--json").json()
    assert out["paper_id"] == paper_id
    assert any(f["kind"] == "citation_without_entry" for f in out["findings"])


def test_a_latex_project_gives_file_and_line(cli: CliRunner) -> None:
    out = cli("check", FIXTURES / "latex", "--json").json()
    missing = next(f for f in out["findings"] if f["kind"] == "citation_without_entry")
    assert missing["where"] == "sections/intro.tex:5" and missing["anchor"] is None
    assert missing["source"] == {"file": "sections/intro.tex", "line": 5,
                                 "text": "Dense retrieval helps \\citep{vellacott2017, smith2020}."}


def test_missing_targets_are_bad_input(cli: CliRunner, tmp_path: Path) -> None:
    assert cli("check", tmp_path / "nothing.pdf").code == 2
    assert cli("check", "deadbeef").code == 3
