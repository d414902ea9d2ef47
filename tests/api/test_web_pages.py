"""Web UI pages through the real server (no browser): upload form, paper, page, job, report."""

from __future__ import annotations

from pathlib import Path

import httpx

from papermind.api.app import create_app
from papermind.config import load_settings
from papermind.llm.testing import fake_gateway
from papermind.reports import lines_on_page, span_of
from tests.api.server import serve, wait_for
from tests.support.reading_script import (
    PAPER_MD,
    checker_answer,
    questions_answer,
    reader_answer,
)


def test_lines_on_page() -> None:
    assert lines_on_page("12-15", 3, 40) == (12, 15)
    assert lines_on_page("7", 3, 40) == (7, 7)
    assert lines_on_page("x", 3, 40) == (0, -1) and lines_on_page("9-3", 3, 40) == (0, -1)
    # a span across pages: its part on each page, a middle page whole, other pages nothing
    assert lines_on_page("4:90-6:12", 4, 95) == (90, 95)
    assert lines_on_page("4:90-6:12", 5, 60) == (1, 60)
    assert lines_on_page("4:90-6:12", 6, 60) == (1, 12)
    assert lines_on_page("4:90-6:12", 7, 60) == (0, -1)
    assert span_of("4:90-5:12", 1) == (4, 90, 5, 12) and span_of("5:1-4:2", 4) is None


def test_pages_from_upload_to_report(home: Path) -> None:
    gateway = fake_gateway({"reader": [reader_answer()], "checker": [checker_answer("high")],
                            "questioner": [questions_answer(["m1"])]})
    with serve(create_app(load_settings(home), gateway=gateway)) as base, \
            httpx.Client(base_url=base, timeout=30) as client:
        assert "No papers yet" in client.get("/").text
        uploaded = client.post("/ui/upload", files={"file": ("p.md", PAPER_MD.encode())})
        assert uploaded.status_code == 303
        paper_url = uploaded.headers["location"]
        paper_id = paper_url.rsplit("/", 1)[-1]
        paper_page = client.get(paper_url).text
        assert "Sparse Mixture Routing" in paper_page and "Deep reading" in paper_page
        lines = client.get(f"{paper_url}/pages/1", params={"lines": "2-3"}).text
        assert 'class="hl"' in lines
        started = client.post("/ui/jobs", data={"kind": "reading", "paper_id": paper_id})
        assert started.status_code == 303
        job_id = started.headers["location"].rsplit("/", 1)[-1]
        assert wait_for(client, job_id)["status"] == "completed"
        assert "Open the report" in client.get(f"/jobs/{job_id}").text
        report = client.get(f"/jobs/{job_id}/report").text
        assert 'class="cite' in report and "/static/app.js" in report
        bad = client.post("/ui/upload", files={"file": ("x.pdf", b"\x00\x01" * 100)})
        assert bad.status_code == 303 and "error=" in bad.headers["location"]
        assert "neither a PDF" in client.get(bad.headers["location"]).text
        assert client.get("/static/app.js").status_code == 200
