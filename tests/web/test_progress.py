"""Progress says what holds: a step shows running, then done or failed, once (the job page,
live and rendered; the upload page for a file that failed)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from papermind.api.app import create_app
from papermind.config import SearchSettings, load_settings
from papermind.domain.job import JobEvent
from papermind.llm.testing import fake_gateway
from papermind.web.steps import job_steps
from tests.api.server import serve
from tests.support.reading_script import checker_answer, questions_answer, reader_answer
from tests.web.paper_pdf import reading_paper_pdf

BEFORE = "el => getComputedStyle(el, '::before').content"


def _event(seq: int, node: str, **data: object) -> JobEvent:
    return JobEvent(job_id="j", seq=seq, at=float(seq), kind="node", node=node, data=data)


def test_a_started_step_is_running_until_it_finishes_and_fails_with_its_job() -> None:
    events = [_event(1, "context_loader", event="started"),
              _event(2, "context_loader", event="finished", summary="full paper, 8564 tokens"),
              _event(3, "deep_reader", event="started", mode="first analysis")]
    running = job_steps(events, "running")
    assert [(s.node, s.state) for s in running] == [("context_loader", "done"),
                                                    ("deep_reader", "running")]
    assert running[0].summary == "full paper, 8564 tokens"
    assert [s.state for s in job_steps(events, "failed")] == ["done", "failed"]
    rewrite = [*events, _event(4, "deep_reader", event="finished"),
               _event(5, "deep_reader", event="started", mode="rewrite")]
    assert [s.state for s in job_steps(rewrite, "running")] == ["done", "done", "running"]


@pytest.fixture
def app_url(home: Path) -> Iterator[str]:
    gateway = fake_gateway({"reader": [reader_answer()] * 2, "checker": [checker_answer("high")] * 2,
                            "questioner": [questions_answer(["M1"])]})
    settings = load_settings(home)
    settings = settings.model_copy(update={"search": SearchSettings(embedder="hashing")})
    with serve(create_app(settings, gateway=gateway)) as base:
        yield base


def test_progress_of_a_running_step_keeps_it_running_and_shown_once() -> None:
    events = [_event(1, "deep_reader", event="started"),
              _event(2, "deep_reader", event="progress", summary="explained 3 of 12 passages"),
              _event(3, "deep_reader", event="progress", summary="explained 4 of 12 passages")]
    (step,) = job_steps(events, "running")
    assert (step.state, step.summary) == ("running", "explained 4 of 12 passages")
    (step,) = job_steps([*events, _event(4, "deep_reader", event="finished", summary="12 points")],
                        "running")
    assert (step.state, step.summary) == ("done", "12 points")


def test_each_step_is_shown_once_and_done_only_when_it_ended(app_url: str, browser_page: Any,
                                                             shots: Any, tmp_path: Path) -> None:
    page = browser_page
    page.goto(app_url + "/")
    page.set_input_files("#upload input[type=file]", str(reading_paper_pdf(tmp_path / "p.pdf")))
    page.click("#upload button[type=submit]")
    page.click(".upload[data-finished=true] [data-role=result] a", timeout=90_000)
    page.wait_for_url(re.compile(r"/papers/[0-9a-f]+$"))
    page.click("#start-reading")
    page.wait_for_url(re.compile(r"/jobs/[0-9a-f]+$"))
    page.wait_for_selector("[data-role=status].completed", timeout=90_000)
    page.wait_for_selector("#report-link:not([hidden])")
    items = page.locator("[data-role=stages] li")
    nodes = [items.nth(i).get_attribute("data-node") for i in range(items.count())]
    assert nodes.count("context_loader") == 1 and nodes.count("deep_reader") == 1, nodes
    assert all(items.nth(i).get_attribute("class") == "done" for i in range(items.count()))
    assert "full paper" in page.inner_text("[data-role=stages]")
    shots(page, "job")


def test_a_failed_upload_marks_its_stage_failed(app_url: str, browser_page: Any, shots: Any,
                                                tmp_path: Path) -> None:
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4\n" + b"\x00garbage" * 200)
    page = browser_page
    page.goto(app_url + "/")
    page.set_input_files("#upload input[type=file]", str(broken))
    page.click("#upload button[type=submit]")
    page.wait_for_selector(".upload[data-finished=true]", timeout=60_000)
    stages = page.locator(".upload [data-role=stages] li")
    assert stages.count() >= 1
    last = stages.nth(stages.count() - 1)
    assert last.get_attribute("class") == "failed"
    assert "✓" not in last.evaluate(BEFORE) and "✗" in last.evaluate(BEFORE)
    shots(page, "upload-failed")
    page.reload()  # the rendered page says the same
    last = page.locator(".upload [data-role=stages] li").last
    assert last.get_attribute("class") == "failed"
