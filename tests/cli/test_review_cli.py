"""`papermind review` through the real entry point, against the mock model server."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from papermind.llm.testing import MockOpenAIServer
from tests.support.cli import CliRunner
from tests.workflows.review.panel_mock import panel_responder
from tests.workflows.review.paper_text import write_paper


@pytest.fixture
def endpoint(monkeypatch: pytest.MonkeyPatch) -> Iterator[MockOpenAIServer]:
    with MockOpenAIServer(responder=panel_responder) as mock:
        monkeypatch.setenv("PAPERMIND_LLM__ENDPOINTS__DEFAULT__BASE_URL", mock.base_url)
        monkeypatch.setenv("PAPERMIND_LLM__ENDPOINTS__DEFAULT__MODEL", "mock-model")
        monkeypatch.setenv("PAPERMIND_LLM__ENDPOINTS__DEFAULT__API_KEY", "k")
        yield mock


def test_review_json_and_out(cli: CliRunner, tmp_path: Path, endpoint: MockOpenAIServer) -> None:
    result = cli("review", write_paper(tmp_path), "--json", "--out", tmp_path / "out")
    assert result.code == 0, result.err
    data = result.json()
    assert data["kind"] == "review" and data["recommendation"] == "major_revision"
    assert "not a decision" in data["disclaimer"]
    assert {"independence", "attack_coverage", "traceability", "share_supported"} <= set(
        data["metrics"])
    assert data["verification"]["share_found"] == 1.0  # every cited line id exists
    assert data["verification"]["supported"] > 0  # the checker ran on the cited text
    flagged = [c for c in data["comments"] if c["flags"]]
    assert flagged and all(c["found"] and not c["verified"] for c in flagged)
    assert all(f["kind"] == "unresolved_reference" for c in flagged for f in c["flags"])
    assert "done editor" in result.err and "done meta" in result.err  # live progress
    saved = json.loads((tmp_path / "out" / "report.json").read_text())
    assert saved["comments"] == data["comments"]


def test_review_minimal_text_output(cli: CliRunner, tmp_path: Path,
                                   endpoint: MockOpenAIServer) -> None:
    result = cli("review", write_paper(tmp_path), "--reviewers", "minimal",
                 "--out", tmp_path / "out")
    assert result.code == 0, result.err
    assert "pre-review aid" in result.out and "traceability" in result.out
    assert "devil" not in result.err


def test_review_bad_input(cli: CliRunner, tmp_path: Path) -> None:
    assert cli("review", tmp_path / "missing.pdf").code == 2
    assert cli("review", "x.md", "--reviewers", "some").code == 2


def test_signoff_aborted_at_its_prompt_ends_its_job(
        cli: CliRunner, tmp_path: Path, endpoint: MockOpenAIServer, home: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    import typer

    from papermind.db import Database
    from papermind.services.job_leases import lease_live
    from papermind.services.job_store import JobStore

    def ctrl_c(*args: object, **kwargs: object) -> bool:
        raise typer.Abort()

    monkeypatch.setattr(typer, "confirm", ctrl_c)
    result = cli("review", write_paper(tmp_path), "--signoff", "--job", "signed",
                 "--out", tmp_path / "out")
    assert result.code != 0 and "sign-off aborted: job signed cancelled" in result.err
    db = Database(home / "library.sqlite3")
    job = JobStore(db).get("signed")
    db.close()
    assert job.status == "cancelled" and "aborted at its prompt" in (job.error or "")
    assert not lease_live(job), "nobody holds it: it can be resumed"
