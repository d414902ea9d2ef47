"""The smaller first-contact items: errors over HTTP name no CLI command, the web says
'completed' as the API does, a finished review's job page shows its recommendation, the
library's date column does not wrap (`add` of one missing file naming it: tests/cli)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from papermind.api.app import create_app
from papermind.config import SearchSettings, load_settings
from tests.api.server import serve
from tests.web.paper_pdf import reading_paper_pdf
from tests.web.test_phone import _review_job


def _client(home: Path) -> TestClient:
    settings = load_settings(home).model_copy(update={"search": SearchSettings(embedder="hashing")})
    return TestClient(create_app(settings), base_url="http://127.0.0.1")


def test_http_errors_name_no_cli_command(home: Path) -> None:
    with _client(home) as client:
        api = client.get("/api/papers/ffffffff")
        assert api.status_code == 404 and "papermind" not in api.json()["detail"]
        page = client.get("/papers/ffffffff")
        assert page.status_code == 404 and "papermind list" not in page.text


def test_a_finished_review_shows_its_recommendation_and_says_completed(home: Path) -> None:
    job = _review_job(home)
    with _client(home) as client:
        page = client.get(f"/jobs/{job}").text
        assert client.get(f"/api/jobs/{job}").json()["status"] == "completed"
    assert 'data-role="status">completed</strong>' in page
    assert "Recommendation: <strong>major revision (confidence" in page


def test_the_library_date_column_does_not_wrap(home: Path, browser_page: Any,
                                                tmp_path: Path) -> None:
    settings = load_settings(home).model_copy(update={"search": SearchSettings(embedder="hashing")})
    with serve(create_app(settings)) as base:
        with TestClient(create_app(settings), base_url="http://127.0.0.1") as client:
            pdf = reading_paper_pdf(tmp_path / "p.pdf").read_bytes()
            client.post("/api/papers", files={"file": ("p.pdf", pdf)}).raise_for_status()
        page = browser_page
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto(base + "/")
        cell = page.locator("table.papers td.date").first
        assert cell.evaluate("el => getComputedStyle(el).whiteSpace") == "nowrap"
        height = cell.evaluate("el => el.getBoundingClientRect().height")
        line = cell.evaluate("el => parseFloat(getComputedStyle(el).lineHeight) || 24")
        assert height < 2 * line + 10
