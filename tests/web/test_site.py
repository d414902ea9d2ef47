"""The whole web UI in headless Chromium: asking the library with a follow-up, uploading
several PDFs with live stages, error pages, and every page readable at phone and desktop
widths with no serious accessibility violation (axe-core)."""

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
from tests.api.server import serve, wait_for
from tests.support.reading_script import checker_answer, questions_answer, reader_answer
from tests.web.paper_pdf import notes_pdf, reading_paper_pdf

QUOTE = "Our method achieves 92.1% accuracy on GLUE."
WIDTHS = (390, 1280)
MIN_TEXT_PX = 14.0
ANSWERED = {"sentences": [{"text": "The method reaches 92.1% accuracy on GLUE.", "cites": ["E1"]}]}


def _script() -> dict[str, list[Any]]:
    """Deep reading, then a library question (answered) and its follow-up (insufficient)."""
    return {"reader": [reader_answer(fabricate=True)] * 2,
            "questioner": [questions_answer(["M1"])],
            "checker": [checker_answer("high")] * 20,
            "distiller": [{"quotes": [{"passage": 1, "quote": QUOTE}]}] * 6,
            "answerer": [ANSWERED, ANSWERED, {"sentences": [], "insufficient": True}]}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """A server with one PDF paper and its finished deep reading; yields base URL and ids."""
    home = tmp_path_factory.mktemp("home")
    settings = load_settings(home).model_copy(update={"search": SearchSettings(embedder="hashing")})
    gateway = fake_gateway(_script())
    with serve(create_app(settings, gateway=gateway)) as base, \
            httpx.Client(base_url=base, timeout=60) as client:
        pdf = reading_paper_pdf(home / "paper.pdf").read_bytes()
        paper = client.post("/api/papers", files={"file": ("paper.pdf", pdf)}).json()["id"]
        job = client.post("/api/jobs", json={"kind": "reading", "paper_id": paper}).json()["id"]
        assert wait_for(client, job, timeout=90)["status"] == "completed"
        asked = client.post("/api/jobs", json={"kind": "question",
                                               "question": "What accuracy on GLUE?"}).json()["id"]
        assert wait_for(client, asked, timeout=90)["status"] == "completed"
        yield {"base": base, "paper": paper, "reading": job, "question": asked}


def test_ask_the_library_then_follow_up(site: dict[str, str], browser_page: Any,
                                        shots: Any) -> None:
    page = browser_page
    page.goto(site["base"] + "/")
    page.fill("#q-library", "How accurate is the sparse router on GLUE?")
    page.click("#ask button[type=submit]")
    page.wait_for_url(re.compile(r"/ask/[0-9a-f]+"))
    first = page.locator(".turn").first
    first.locator("article.report").wait_for(timeout=90_000)  # live stages, then the answer
    assert "92.1% accuracy" in first.inner_text()
    cite = first.locator(".sentence .cite[data-page]").first
    assert cite.get_attribute("data-paper") == site["paper"]
    shots(page, "1-answer")

    page.fill("#q-follow", "And on SQuAD?")
    page.click("#thread form.ask button[type=submit]")
    page.wait_for_function("() => document.querySelectorAll('.turn article.report').length == 2",
                           timeout=90_000)
    turns = page.locator(".turn")
    assert turns.count() == 2
    assert "How accurate is the sparse router" in turns.nth(0).inner_text()
    second = turns.nth(1)
    assert "And on SQuAD?" in second.inner_text()
    assert "INSUFFICIENT EVIDENCE" in second.inner_text()
    # the evidence found is shown even when it does not answer the question
    assert second.locator("td[data-evidence] .cite[data-page]").count() >= 1
    shots(page, "2-follow-up")


def test_upload_two_pdfs_and_watch_their_stages(site: dict[str, str], browser_page: Any,
                                                shots: Any, tmp_path: Path) -> None:
    page = browser_page
    page.goto(site["base"] + "/")
    files = [str(notes_pdf(tmp_path / "notes.pdf")),
             str(notes_pdf(tmp_path / "other.pdf", title="Sparse Attention Notes"))]
    page.set_input_files("#upload-files", files)
    page.click("#upload button[type=submit]")
    page.wait_for_url(re.compile(r"/uploads\?ids="))
    uploads = page.locator(".upload")
    assert uploads.count() == 2
    page.wait_for_function(
        "() => [...document.querySelectorAll('.upload')].every(u => u.dataset.finished === 'true')",
        timeout=90_000)
    for n in range(2):
        stages = uploads.nth(n).locator("[data-role=stages] li")
        assert [stages.nth(i).get_attribute("data-state") for i in range(stages.count())] == [
            "parse", "index", "embed"]
        assert uploads.nth(n).locator("[data-role=state]").inner_text() == "added"
    titles = uploads.locator("[data-role=result] a").all_inner_texts()
    assert titles == ["Dense Retrieval Notes", "Sparse Attention Notes"]
    shots(page, "1-stages")

    page.goto(site["base"] + "/")  # the same file again: it says where the paper is
    page.set_input_files("#upload-files", files[0])
    page.click("#upload button[type=submit]")
    page.wait_for_selector(".upload[data-finished=true]")
    result = page.locator(".upload [data-role=result]")
    assert "already in the library" in result.inner_text()
    page.click(".upload [data-role=result] a")
    page.wait_for_url(re.compile(r"/papers/[0-9a-f]+$"))
    assert page.inner_text("h1") == "Dense Retrieval Notes"


def test_a_bad_id_shows_an_html_error_page(site: dict[str, str], browser_page: Any,
                                           shots: Any) -> None:
    page = browser_page
    for path in ("/papers/zz", "/jobs/nope", "/ask/nope", f"/papers/{site['paper']}/pages/99"):
        response = page.goto(site["base"] + path)
        assert response is not None and response.status == 404, path
        assert "text/html" in response.headers["content-type"], path
        assert page.inner_text("h1") == "Not found"
        assert page.locator("header.app nav a[href='/jobs']").count() == 1, "in the layout"
        assert page.locator("a[href='/']").count() >= 1
    shots(page, "1-not-found")
    with httpx.Client(base_url=site["base"]) as client:  # the API keeps problem+json
        api = client.get("/api/papers/zz")
        assert api.headers["content-type"] == "application/problem+json"


def _pages(site: dict[str, str]) -> list[str]:
    paper, reading, question = site["paper"], site["reading"], site["question"]
    return ["/", "/?q=load+loss", f"/papers/{paper}", f"/papers/{paper}/pages/1?lines=3-4",
            f"/jobs/{reading}", f"/jobs/{reading}/report", "/jobs", "/login", "/papers/zz",
            f"/ask/{question}", f"/jobs/{question}", f"/jobs/{question}/report"]


def _shown(site: dict[str, str]) -> dict[str, str]:
    """The pages screenshotted at each width, by name."""
    return {"/": "library", f"/papers/{site['paper']}": "paper",
            f"/jobs/{site['reading']}/report": "reading-report", f"/jobs/{site['reading']}": "job",
            f"/papers/{site['paper']}/pages/1?lines=3-4": "page"}


def _too_small_text(page: Any) -> list[str]:
    return page.evaluate("""(min) => {
      const out = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) {
        const node = walker.currentNode, el = node.parentElement;
        if (!node.textContent.trim() || !el || !el.getClientRects().length) continue;
        // the reader's text layer is transparent over the page image (selection and find):
        // what is read there is the image, at the page's scale
        if (getComputedStyle(el).color === 'rgba(0, 0, 0, 0)') continue;
        const size = parseFloat(getComputedStyle(el).fontSize);
        if (size < min) out.push(size + 'px: ' + node.textContent.trim().slice(0, 40));
      }
      return out;
    }""", MIN_TEXT_PX)


def test_no_page_scrolls_sideways_and_text_is_readable(site: dict[str, str], browser_page: Any,
                                                       shots: Any) -> None:
    page = browser_page
    shown = _shown(site)
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        for path in _pages(site):
            page.goto(site["base"] + path)
            page.wait_for_load_state("load")
            wide = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
            assert wide[0] <= wide[1], (width, path, wide)
            assert _too_small_text(page) == [], (width, path)
            assert page.locator("meta[name=viewport]").count() == 1, path
            if path in shown:
                shots(page, f"{shown[path]}-{width}")


def test_every_page_passes_axe(site: dict[str, str], browser_page: Any, axe_source: str,
                               shots: Any) -> None:
    page = browser_page
    found: dict[str, list[str]] = {}
    dark = [f"dark {p}" for p in ("/", f"/jobs/{site['reading']}/report", f"/ask/{site['question']}")]
    for path in _pages(site) + dark:
        page.emulate_media(color_scheme="dark" if path.startswith("dark ") else "light")
        page.goto(site["base"] + path.removeprefix("dark "))
        if path.startswith("dark "):
            background = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
            assert background == "rgb(20, 23, 28)", (path, background)  # dark mode is on
            shots(page, path.replace("/", "_").replace(" ", ""))
        page.evaluate(axe_source)
        result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
        assert result["testEngine"]["name"] == "axe-core" and result["passes"], path
        serious = [f"{v['id']} ({v['impact']}): {v['nodes'][0]['target']}"
                   for v in result["violations"] if v["impact"] in ("serious", "critical")]
        if serious:
            found[path] = serious
    assert found == {}
    page.evaluate("() => document.body.append(Object.assign(document.createElement('input'), "
                  "{type: 'text'}))")  # an unlabelled field: the check can fail
    broken = page.evaluate("async () => await axe.run(document)")
    assert any(v["id"] == "label" and v["impact"] in ("serious", "critical")
               for v in broken["violations"])


def test_a_chinese_browser_gets_the_chinese_ui(site: dict[str, str], browser_page: Any,
                                               shots: Any) -> None:
    page = browser_page
    page.set_extra_http_headers({"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.5"})
    page.goto(site["base"] + "/")
    assert page.get_attribute("html", "lang") == "zh"
    assert page.inner_text("h1") == "文献库"
    assert "向文献库提问" in page.inner_text("#ask")
    shots(page, "1-library-zh")
    page.goto(site["base"] + f"/jobs/{site['reading']}")
    assert page.inner_text("h1") == "精读" and "已完成" in page.inner_text(".job-live")
    page.goto(site["base"] + "/papers/zz")
    assert page.inner_text("h1") == "未找到"
    page.goto(site["base"] + "/ui/language/en")  # the visitor's choice beats the browser's
    assert page.inner_text("h1") == "Library"
