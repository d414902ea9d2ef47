"""The import-linter contracts in pyproject.toml hold, and really fail on a violation."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LINT = Path(sys.executable).with_name("lint-imports")


def _lint(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(LINT)], cwd=root, capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(root / "src"), "PATH": "/usr/bin:/bin"})


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(REPO / "src" / "papermind", root / "src" / "papermind",
                    ignore=shutil.ignore_patterns("__pycache__", "static", "templates"))
    shutil.copy(REPO / "pyproject.toml", root / "pyproject.toml")
    return root


def test_contracts_are_kept(tmp_path: Path) -> None:
    result = _lint(_copy(tmp_path))
    assert result.returncode == 0, result.stdout[-3000:]
    assert "Interfaces call services only KEPT" in result.stdout


def test_an_interface_importing_a_workflow_fails(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    (root / "src" / "papermind" / "cli" / "scratch.py").write_text(
        "from papermind.workflows.deep_qa import graph  # noqa: F401\n")
    result = _lint(root)
    assert result.returncode != 0
    assert "Interfaces call services only BROKEN" in result.stdout
    assert "papermind.cli.scratch -> papermind.workflows.deep_qa" in result.stdout


def test_one_workflow_importing_another_fails(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    (root / "src" / "papermind" / "workflows" / "review" / "scratch.py").write_text(
        "from papermind.workflows.deep_reading import render  # noqa: F401\n")
    result = _lint(root)
    assert result.returncode != 0
    assert "Workflows are independent of each other BROKEN" in result.stdout
