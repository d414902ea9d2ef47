"""The shipped pre-commit hook and the documented GitHub Actions job run `papermind check`
with options it has: their commands are run on the fixture project."""

from __future__ import annotations

import json
import re
import shlex
import shutil
from pathlib import Path

import pytest
import yaml

from tests.support.cli import CliRunner

ROOT = Path(__file__).parents[2]
PROJECT = ROOT / "tests" / "grounding" / "check_fixtures" / "latex"


def test_the_pre_commit_hook_runs_the_check(cli: CliRunner) -> None:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    hook = next(h for h in hooks if h["id"] == "papermind-check")
    assert hook["entry"].split() == ["papermind", "check"] and not hook["pass_filenames"]
    args = [str(PROJECT) if a == "." else a for a in hook["args"]]
    assert cli("check", *args).code == 1  # the fixture has high findings


def test_the_documented_workflow_steps_run(cli: CliRunner, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    page = (ROOT / "docs" / "guide" / "check.md").read_text(encoding="utf-8")
    block = re.search(r"```yaml\nname: paper check\n(.*?)```", page, re.S)
    assert block is not None
    job = yaml.safe_load("name: paper check\n" + block.group(1))
    runs = [s["run"] for s in job["jobs"]["check"]["steps"] if "papermind check" in s.get("run", "")]
    assert len(runs) == 2
    shutil.copytree(PROJECT, tmp_path / "paper")
    monkeypatch.chdir(tmp_path)
    sarif, github = (cli("check", *shlex.split(run.split(">")[0])[2:]) for run in runs)
    assert sarif.code == 0 and json.loads(sarif.out)["version"] == "2.1.0"
    assert github.code == 1 and github.out.startswith("::")
