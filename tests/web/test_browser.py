"""The web UI in headless Chromium: upload, deep reading, report, citation -> highlighted page."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from papermind.api.app import create_app
from papermind.config import SearchSettings, load_settings
from papermind.llm.testing import fake_gateway
from tests.api.server import serve
from tests.support.reading_script import checker_answer, questions_answer, reader_answer
from tests.web.paper_pdf import reading_paper_pdf

PAGE_SCALE = 1.5
TOLERANCE_PX = 1.5


@pytest.fixture
def reading_app(home: Path) -> Iterator[str]:
    """A real server whose model is the scripted deep-reading fake."""
    gateway = fake_gateway({"reader": [reader_answer(fabricate=True)] * 2,  # M2 is made up
                            "checker": [checker_answer("high")] * 2,
                            "questioner": [questions_answer(["M1"])]})
    settings = load_settings(home)
    settings = settings.model_copy(update={"search": SearchSettings(embedder="hashing")})
    with serve(create_app(settings, gateway=gateway)) as base:
        yield base


def _box(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not rendered"
    return dict(box)


def _check_labels_are_honest(page: Any, found: Any) -> None:
    """Every citation says what holds (papermind.reports); an unfound one is visibly marked
    and opens nothing."""
    labels = page.locator(".cite .status").all_inner_texts()
    assert labels and all(t == "verified" or t.startswith(("found \u00b7", "NOT FOUND"))
                          for t in labels), labels
    unfound = page.locator(".cite.not_found")
    if unfound.count() == 0:
        return
    assert "NOT FOUND" in unfound.first.inner_text()
    color = "el => getComputedStyle(el).color"
    assert unfound.first.evaluate(color) != found.evaluate(color), "visibly marked"
    unfound.first.click()
    page.wait_for_timeout(300)


def test_upload_read_and_open_a_citation(reading_app: str, browser_page: Any, shots: Any,
                                         tmp_path: Path) -> None:
    page = browser_page
    page.goto(reading_app + "/")
    page.set_input_files("#upload input[type=file]", str(reading_paper_pdf(tmp_path / "p.pdf")))
    page.click("#upload button[type=submit]")
    page.wait_for_url(re.compile(r"/papers/[0-9a-f]+$"))
    paper_id = page.url.rsplit("/", 1)[-1]
    assert "Sparse Mixture Routing" in page.inner_text("h1")
    shots(page, "1-paper")

    page.click("#start-reading")
    page.wait_for_url(re.compile(r"/jobs/[0-9a-f]+$"))
    page.wait_for_selector("#status.completed", timeout=90_000)  # live, over SSE
    page.wait_for_selector("#report-link:not([hidden])")
    assert "deep_reader" in page.inner_text("#progress")
    shots(page, "2-job")

    page.click("#report-link a[href$='/report']")
    cites = page.locator(".cite[data-page]")
    assert cites.count() >= 3
    shots(page, "3-report")
    report_url = page.url
    _check_labels_are_honest(page, cites.first)
    assert page.url == report_url, "an unfound citation opens nothing"
    cite = cites.nth(1)
    first, last = int(cite.get_attribute("data-line-start")), int(cite.get_attribute("data-line-end"))
    number = int(cite.get_attribute("data-page"))
    cite.click()

    page.wait_for_url(re.compile(rf"/papers/{paper_id}/pages/{number}\?lines={first}-{last}$"))
    page.wait_for_function("() => document.getElementById('page-image').naturalWidth > 0")
    shots(page, "4-page")
    with httpx.Client(base_url=reading_app) as client:
        lines = client.get(f"/api/papers/{paper_id}").json()["paper"]["pages"][number - 1]["lines"]
    cited = [ln["box"] for ln in lines if first <= ln["n"] <= last]
    marks = page.locator(".highlight")
    assert marks.count() == len(cited) >= 1
    image = _box(page, "#page-image")
    for n, want in enumerate(cited):
        got = marks.nth(n).bounding_box()
        assert got is not None
        expected = {"x": want["x0"] * PAGE_SCALE, "y": want["y0"] * PAGE_SCALE,
                    "width": (want["x1"] - want["x0"]) * PAGE_SCALE,
                    "height": (want["y1"] - want["y0"]) * PAGE_SCALE}
        actual = {"x": got["x"] - image["x"], "y": got["y"] - image["y"],
                  "width": got["width"], "height": got["height"]}
        for key, value in expected.items():
            assert abs(actual[key] - value) <= TOLERANCE_PX, (key, actual, expected)
    assert image["width"] == pytest.approx(612 * PAGE_SCALE, abs=1)
