"""A reading run from the CLI is a job of the web UI on the same library: listed on the
Jobs page, its page shows its steps done, and its report opens in the reader."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from papermind.api.app import create_app
from papermind.llm.testing import fake_gateway
from papermind.services import reading
from tests.api.server import serve
from tests.support.cli import CliRunner, cli
from tests.support.containers import hashing_settings
from tests.workflows.deep_reading.echo_model import echo_checker, echo_questioner, echo_reader

__all__ = ["cli"]  # the fixture
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "example_paper.pdf"


@pytest.fixture
def cli_job(cli: CliRunner, monkeypatch: pytest.MonkeyPatch) -> str:
    """The id of a reading run by `papermind read` (before the browser's loop starts)."""
    if not EXAMPLE.exists():
        pytest.skip("examples/example_paper.pdf not built")
    gw = fake_gateway({"reader": [echo_reader()], "checker": [echo_checker("high")],
                       "questioner": [echo_questioner]})
    monkeypatch.setattr(reading, "gateway_for", lambda container: gw)
    done = cli("read", EXAMPLE, "--json")
    assert done.code == 0, done.err
    return str(done.json()["job_id"])


def test_a_cli_job_is_listed_followed_and_read_in_the_web(
        cli_job: str, home: Path, browser_page: Any, shots: Any) -> None:
    job_id = cli_job
    with serve(create_app(hashing_settings(home))) as base:
        page = browser_page
        page.goto(base + "/jobs")
        page.click(f"a[href='/jobs/{job_id}']")
        page.wait_for_url(re.compile(rf"/jobs/{job_id}$"))
        assert page.locator("[data-role=status].completed").count() == 1
        steps = page.locator("[data-role=stages] li")
        assert steps.count() >= 4 and page.locator("[data-role=stages] li.done").count() == steps.count()
        shots(page, "cli-job")
        page.click("#read-beside")
        page.wait_for_selector("#report-panel .cite[data-page]")
        assert page.locator(".sheet").count() >= 1
        shots(page, "cli-job-reader")
