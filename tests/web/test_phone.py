"""Phones (390 px): no page scrolls sideways, tables reflow with every column visible, and
in the reader the report and the pages are one tap apart."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from papermind.api.app import create_app
from papermind.domain.job import JobRequest
from papermind.llm.testing import fake_gateway
from papermind.services.container import Container
from papermind.services.report_files import write_reports
from papermind.workflows.review.report import build_report
from tests.api.server import serve, wait_for
from tests.support.containers import hashing_settings
from tests.support.reader_paper import ReaderSite, reader_site
from tests.support.review_script import run_review, script, with_lost_comment
from tests.web.paper_pdf import reading_paper_pdf
from tests.web.test_site import QUOTE, _script
from tests.workflows.review.paperkit import build_paper

PHONE = {"width": 390, "height": 844}
SIDEWAYS = "() => document.documentElement.scrollWidth - window.innerWidth"


def _review_job(home: Path, *, lost_comment: bool = False) -> str:
    """A finished review job (the scripted panel) in the library at ``home``; with
    ``lost_comment`` its first comment cites lines that are not there and three works that
    are not in the bibliography."""
    result = asyncio.run(run_review(fake_gateway(script()), build_paper(findings=True)))
    report = build_report(result.state, models={"meta": "scripted"}, demo_quality=True,
                          usage={"tokens_in": 10, "tokens_out": 5, "cost_usd": 0.0})
    if lost_comment:
        report = with_lost_comment(report)
    settings = hashing_settings(home)
    with Container(settings) as box:
        job, _ = box.job_store.create_or_get_active(
            "review-1", JobRequest(kind="review", paper_id=report.paper_id))
        box.job_store.finish(job.id, "completed")
        write_reports(report, box.report_dir(job.id))
    return job.id


@pytest.fixture
def site(home: Path) -> Iterator[dict[str, str]]:
    review = _review_job(home)
    settings = hashing_settings(home)
    with serve(create_app(settings, gateway=fake_gateway(_script()))) as base, \
            httpx.Client(base_url=base, timeout=60) as client:
        pdf = reading_paper_pdf(home / "paper.pdf").read_bytes()
        client.post("/api/papers", files={"file": ("paper.pdf", pdf)}).raise_for_status()
        asked = client.post("/api/jobs", json={"kind": "question",
                                               "question": "What accuracy on GLUE?"}).json()["id"]
        wait_for(client, asked, timeout=90)
        yield {"base": base, "review": review, "question": asked}


def _cells_on_screen(page: Any, selector: str) -> list[str]:
    """Cells of ``selector`` that end beyond the viewport's right edge (none: all visible)."""
    return list(page.evaluate("""(sel) => [...document.querySelectorAll(sel)]
        .filter(td => td.getBoundingClientRect().right > innerWidth + 1)
        .map(td => td.textContent.slice(0, 40))""", selector))


def test_review_scores_and_the_ask_evidence_reflow(site: dict[str, str], browser_page: Any,
                                                   shots: Any) -> None:
    page = browser_page
    page.set_viewport_size(PHONE)
    page.goto(f"{site['base']}/jobs/{site['review']}/report")
    page.wait_for_load_state("load")
    assert page.evaluate(SIDEWAYS) <= 0
    assert page.locator("table.reflow").count() >= 1
    assert _cells_on_screen(page, "table td") == []
    shots(page, "review-390")
    page.goto(f"{site['base']}/ask/{site['question']}")
    page.wait_for_load_state("load")
    assert page.evaluate(SIDEWAYS) <= 0
    quotes = page.locator("td[data-label=quote]")  # the answer's evidence: its quote column
    assert quotes.count() >= 1 and quotes.first.is_visible()
    assert QUOTE[:20] in quotes.first.inner_text()
    assert _cells_on_screen(page, "td[data-label=quote]") == []
    shots(page, "ask-390")


@pytest.fixture
def reader(home: Path, tmp_path: Path) -> Iterator[ReaderSite]:
    with reader_site(home, tmp_path) as running:
        yield running


def test_report_and_pages_are_one_tap_apart_on_a_phone(reader: ReaderSite, browser_page: Any,
                                                       shots: Any) -> None:
    page = browser_page
    page.set_viewport_size(PHONE)
    page.goto(f"{reader.base}/papers/{reader.paper.id}/pages/1?report={reader.job_id}")
    page.wait_for_load_state("load")
    assert page.locator(".reader-tabs").is_visible()
    assert page.locator(".sheets").is_visible() and not page.locator("#report-panel").is_visible()
    page.click(".reader-tabs [data-view=report]")
    assert not page.locator(".sheets").is_visible()
    panel = page.locator("#report-panel").bounding_box()
    tabs = page.locator(".reader-tabs").bounding_box()
    assert panel is not None and tabs is not None
    assert tabs["y"] + tabs["height"] <= panel["y"] < PHONE["height"], (tabs, panel)
    assert page.evaluate(SIDEWAYS) <= 0
    shots(page, "report-tab")
    page.locator("#report-panel .cite[data-page]").first.click()
    page.wait_for_selector(".hl-box")
    assert page.locator(".sheets").is_visible() and not page.locator("#report-panel").is_visible()
    mark = page.locator(".hl-box").first.bounding_box()
    assert mark is not None and 0 <= mark["y"] < PHONE["height"]
    shots(page, "cited-page")
    page.set_viewport_size({"width": 1280, "height": 900})
    assert page.locator(".sheets").is_visible() and page.locator("#report-panel").is_visible()


@pytest.fixture
def lost_review(home: Path) -> str:
    return _review_job(home, lost_comment=True)  # before the browser's event loop starts


def test_a_review_comment_says_its_status_once_details_folded(
        lost_review: str, home: Path, browser_page: Any, shots: Any) -> None:
    job = lost_review
    with serve(create_app(hashing_settings(home))) as base:
        page = browser_page
        page.goto(f"{base}/jobs/{job}/report")
        item = page.locator("li", has=page.locator("strong", has_text="Lost comment")).first
        shown = item.inner_text()  # a closed <details> shows only its summary
        assert shown.count("not verified") == 1 and "NOT FOUND" not in shown, shown
        assert shown.lower().count("not found") == 1, shown  # only in the comment's status
        assert shown.count("flag: unresolved reference") == 1 and "×3" in shown
        assert "cites 'Work 0'" not in shown
        item.locator("details.why summary").click()
        opened = item.inner_text()
        assert "NOT FOUND" in opened and all(f"cites 'Work {n}'" in opened for n in range(3))
        shots(page, "lost-comment")
