"""The paper page's Check tab in headless Chromium: the findings listed by aspect, a finding
opening the reader with its lines highlighted; the double-blind option adds its findings."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from papermind.api.app import create_app
from papermind.config import SearchSettings, load_settings
from tests.api.server import serve

DRAFT = Path(__file__).parents[1] / "grounding" / "check_fixtures" / "draft.md"


@pytest.fixture
def site(home: Path) -> Iterator[tuple[str, str]]:
    settings = load_settings(home).model_copy(
        update={"search": SearchSettings(embedder="hashing")})
    with serve(create_app(settings)) as base:
        paper_id = httpx.post(f"{base}/api/papers", timeout=60,
                              files={"file": ("draft.md", DRAFT.read_bytes())}).json()["id"]
        yield base, paper_id


def test_a_finding_opens_the_reader_on_its_lines(site: tuple[str, str], browser_page: Any,
                                                 shots: Any) -> None:
    base, paper_id = site
    page = browser_page
    page.goto(f"{base}/papers/{paper_id}")
    page.locator("#tab-check").click()
    page.wait_for_url(f"**/papers/{paper_id}/check")
    assert "high" in page.locator("#check-summary").inner_text()
    finding = page.locator('li.finding[data-kind="citation_without_entry"]')
    assert "Vellacott" in finding.inner_text()
    assert page.locator('li.finding[data-kind="self_identifying"]').count() == 0
    shots(page, "check-tab")
    finding.locator("a.finding-link").click()
    page.wait_for_url("**/pages/1?lines=13-13")
    marked = page.locator("ol.lines li.hl")
    assert marked.count() == 1 and marked.first.get_attribute("data-l") == "13"
    assert "Vellacott et al., 2017" in marked.first.inner_text()
    shots(page, "reader-on-finding")


def test_the_double_blind_option_adds_anonymity_findings(site: tuple[str, str],
                                                         browser_page: Any) -> None:
    base, paper_id = site
    page = browser_page
    page.goto(f"{base}/papers/{paper_id}/check")
    page.locator('input[name="anonymous"]').check()
    page.locator('select[name="venue"]').select_option("acl")
    page.locator(".check-options button").click()
    page.wait_for_url("**/check?venue=acl&anonymous=true")
    assert page.locator('li.finding[data-kind="self_identifying"]').count() == 1
    assert page.locator('li.finding[data-kind="venue_part_missing"]').count() >= 1
