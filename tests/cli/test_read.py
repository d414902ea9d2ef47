"""`papermind read` end to end on the bundled example paper, with a scripted model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from papermind.llm.testing import FakeGateway, fake_gateway
from papermind.services import reading
from tests.cli.evidence_check import assert_evidence_anchored
from tests.support.cli import CliRunner, library_state
from tests.workflows.deep_reading.echo_model import echo_checker, echo_questioner, echo_reader

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "example_paper.pdf"
MADE_UP = "Curvature stopping was first proposed by Newton in 1687 for planetary orbits."


@pytest.fixture
def gateway(monkeypatch: pytest.MonkeyPatch) -> FakeGateway:
    gw = fake_gateway({"reader": [echo_reader(MADE_UP), echo_reader()],
                       "checker": [echo_checker("low"), echo_checker("high")],
                       "questioner": [echo_questioner]})
    monkeypatch.setattr(reading, "gateway_for", lambda container: gw)
    return gw


def test_read_a_file_writes_three_reports(cli: CliRunner, gateway: FakeGateway,
                                          tmp_path: Path, home: Path) -> None:
    if not EXAMPLE.exists():
        pytest.skip("examples/example_paper.pdf not built")
    out = tmp_path / "out"
    result = cli("read", EXAMPLE, "--out", out, "--json")
    assert result.code == 0, result.err
    for node in ("context_loader", "deep_reader", "hallucination_checker", "questioner"):
        assert f"done {node}" in result.err
    report = result.json()
    assert sorted(p.name for p in out.iterdir()) == ["report.html", "report.json", "report.md"]
    assert json.loads((out / "report.json").read_text()) == report
    assert report["kind"] == "deep_reading" and report["rewrites"] == 1
    assert library_state(home)[0] == [report["paper_id"]]
    assert set(report["models"]) == {"reader", "checker", "questioner"}
    assert report["usage"]["by_node"]["deep_reader"]["calls"] == 2
    assert [h["node"] for h in report["history"]][-1] == "questioner"
    first_feedback = report["revisions"][0]["feedback"]
    assert MADE_UP in first_feedback and MADE_UP in gateway.calls_for(role="reader")[1].text
    assert assert_evidence_anchored(report, home) == report["verification"]["total"] > 0
    html = (out / "report.html").read_text()
    assert html.count('class="cite ') == report["verification"]["total"]
    assert 'data-page="1"' in html and "p. 1, l." in (out / "report.md").read_text()


def test_read_by_library_id_and_markdown_summary(cli: CliRunner, gateway: FakeGateway,
                                                 tmp_path: Path) -> None:
    if not EXAMPLE.exists():
        pytest.skip("examples/example_paper.pdf not built")
    added = cli("add", EXAMPLE, "--json").json()
    paper_id = added[0]["paper_id"] if "paper_id" in added[0] else added[0]["id"]
    result = cli("read", paper_id[:10], "--out", tmp_path / "r")
    assert result.code == 0, result.err
    assert "credibility" in result.out and "citations found" in result.out
    assert "UNVERIFIED" not in result.out
    assert "found · not enough" in result.out  # E1's made-up dataset names: code says so
    assert (tmp_path / "r" / "report.md").read_text().startswith("# Deep reading: ")


def test_read_missing_file_and_unknown_id(cli: CliRunner) -> None:
    missing = cli("read", "nope/paper.pdf")
    assert missing.code == 2 and "no such file" in missing.err
    unknown = cli("read", "abcdef0123")
    assert unknown.code == 3 and "no paper" in unknown.err


def test_failed_read_says_how_to_resume_and_resume_finishes(
        cli: CliRunner, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    if not EXAMPLE.exists():
        pytest.skip("examples/example_paper.pdf not built")
    gw = fake_gateway({"reader": [echo_reader()],
                       "checker": [RuntimeError("endpoint down"), echo_checker("high")],
                       "questioner": [echo_questioner]})
    monkeypatch.setattr(reading, "gateway_for", lambda container: gw)
    failed = cli("read", EXAMPLE, "--job", "job-7", "--out", tmp_path / "r")
    assert failed.code == 5 and "--job job-7" in failed.err
    resumed = cli("read", EXAMPLE, "--job", "job-7", "--out", tmp_path / "r", "--json")
    assert resumed.code == 0, resumed.err
    assert "done deep_reader" not in resumed.err and "done questioner" in resumed.err
    assert len(gw.calls_for(role="reader")) == 1 and resumed.json()["job_id"] == "job-7"
