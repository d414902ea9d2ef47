"""`papermind check --format sarif|github` and `--baseline FILE`: findings where authors look
(code scanning, workflow annotations) and only what is new since an earlier run."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import jsonschema
import pytest

from tests.support.cli import CliRunner

FIXTURES = Path(__file__).parents[1] / "grounding" / "check_fixtures"
DRAFT = FIXTURES / "draft.md"
SARIF_SCHEMA = (Path(__file__).parents[1] / "web" / "node_modules" / "@microsoft" / "jest-sarif"
                / "lib" / "schemas" / "sarif-2.1.0-rtm.5.json")
"""The OASIS SARIF 2.1.0 schema, from the npm package tests/web installs (npm ci)."""
ANNOTATION = re.compile(r"^::(error|warning|notice)( [a-z]+=[^,:]*(,[a-z]+=[^,:]*)*)?::.+$")
"""A GitHub workflow command: ::level file=F,line=N,title=T::message (values escaped)."""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The LaTeX fixture project inside a 'repository' that is the working directory."""
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURES / "latex", repo / "paper")
    monkeypatch.chdir(repo)
    return repo / "paper"


def test_sarif_points_at_the_tex_file_and_line(cli: CliRunner, project: Path) -> None:
    result = cli("check", project, "--format", "sarif")
    assert result.code == 0, result.err
    log = json.loads(result.out)
    assert log["version"] == "2.1.0"
    run = log["runs"][0]
    rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
    missing = next(r for r in run["results"] if r["ruleId"] == "citation_without_entry")
    location = missing["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "paper/sections/intro.tex"
    assert location["region"]["startLine"] == 5
    assert missing["level"] == {"high": "error", "medium": "warning", "low": "note"}[
        _severity(cli, project, "citation_without_entry")]
    assert "bibliography" in rules["citation_without_entry"]["help"]["text"]
    assert run["tool"]["driver"]["rules"][missing["ruleIndex"]]["id"] == "citation_without_entry"


def _severity(cli: CliRunner, target: Path, kind: str) -> str:
    out = cli("check", target, "--json").json()
    return str(next(f["severity"] for f in out["findings"] if f["kind"] == kind))


def test_sarif_validates_against_the_schema(cli: CliRunner, project: Path) -> None:
    if not SARIF_SCHEMA.is_file():
        pytest.skip("SARIF schema not installed: run `npm ci` in tests/web")
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    for target in (project, DRAFT):
        log = json.loads(cli("check", target, "--anonymous", "--format", "sarif").out)
        jsonschema.Draft4Validator(schema).validate(log)


def test_a_pdf_or_text_finding_names_page_and_line_in_its_message(cli: CliRunner) -> None:
    log = json.loads(cli("check", DRAFT, "--format", "sarif").out)
    missing = next(r for r in log["runs"][0]["results"] if r["ruleId"] == "citation_without_entry")
    assert missing["message"]["text"].startswith("p. 1, l. 13: ")
    assert missing["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith(
        "draft.md")
    assert "region" not in missing["locations"][0]["physicalLocation"]


def test_github_lines_parse_as_annotations(cli: CliRunner, project: Path) -> None:
    result = cli("check", project, "--format", "github", "--fail-on", "high")
    assert result.code == 1
    lines = result.out.splitlines()
    assert lines and all(ANNOTATION.match(line) for line in lines), lines
    assert any(line.startswith("::error file=paper/sections/intro.tex,line=5,title=")
               for line in lines)


def test_an_unknown_format_is_bad_input(cli: CliRunner) -> None:
    bad = cli("check", DRAFT, "--format", "xml")
    assert bad.code == 2 and "--format" in bad.err


def test_baseline_reports_only_new_findings_even_when_lines_move(
        cli: CliRunner, project: Path, tmp_path: Path) -> None:
    for fmt in ("json", "sarif"):
        before = cli("check", project, "--format", fmt)
        baseline = tmp_path / f"baseline.{fmt}"
        baseline.write_text(before.out, encoding="utf-8")
        assert cli("check", project, "--baseline", baseline, "--json").json()["findings"] == []
    intro = project / "sections" / "intro.tex"
    text = intro.read_text(encoding="utf-8")
    intro.write_text("% a new first line\n\n" + text + "\nSee \\ref{tab:nowhere}.\n",
                     encoding="utf-8")
    after = cli("check", project, "--baseline", tmp_path / "baseline.json", "--json").json()
    assert [f["kind"] for f in after["findings"]] == ["reference_to_missing_label"]
    assert any("baseline" in note for note in after["notes"])


def test_a_bad_baseline_is_bad_input(cli: CliRunner, tmp_path: Path) -> None:
    assert cli("check", DRAFT, "--baseline", tmp_path / "none.json").code == 2
    (tmp_path / "junk.json").write_text("{not json", encoding="utf-8")
    bad = cli("check", DRAFT, "--baseline", tmp_path / "junk.json")
    assert bad.code == 2 and "baseline" in bad.err
