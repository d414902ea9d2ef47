"""The reader in headless Chromium: select text and read it back; a citation highlights its
quote's words (not whole lines), on both pages when it crosses the page break; keys."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.reader_paper import (
    ONE_PAGE_QUOTE,
    PAGES,
    TWO_PAGE_QUOTE,
    ReaderSite,
    WordBox,
    drawn_words,
    reader_site,
    words_of,
)

MIN_COVER = 0.9  # share of each quoted word's box a highlight must cover
EDGE_PX = 2.0  # slack at the quote's ends (the highlight may not reach further)

Rect = tuple[float, float, float, float]


@pytest.fixture
def site(home: Path, tmp_path: Path) -> Iterator[ReaderSite]:
    with reader_site(home, tmp_path) as running:
        yield running


def _open(page: Any, site: ReaderSite, query: str = "") -> None:
    page.goto(f"{site.base}/papers/{site.paper.id}/pages/1?report={site.job_id}{query}")
    page.wait_for_function("() => [...document.querySelectorAll('.sheet img')]"
                           ".every(i => i.complete && i.naturalWidth > 0)")


def _on_screen(page: Any, word: WordBox) -> Rect:
    """A drawn word's box in page (CSS px) coordinates, from its sheet's position."""
    sheet = page.locator(f"#page-{word.page} img").bounding_box()
    k = sheet["width"] / 612
    return (sheet["x"] + word.x0 * k, sheet["y"] + word.y0 * k, sheet["x"] + word.x1 * k,
            sheet["y"] + word.y1 * k)


def _marks(page: Any, number: int) -> list[Rect]:
    boxes = [m.bounding_box() for m in page.locator(f"#page-{number} .hl-box").all()]
    return [(b["x"], b["y"], b["x"] + b["width"], b["y"] + b["height"]) for b in boxes if b]


def _covered(word: Rect, marks: list[Rect]) -> float:
    area = (word[2] - word[0]) * (word[3] - word[1])
    inside = sum(max(0.0, min(word[2], m[2]) - max(word[0], m[0])) *
                 max(0.0, min(word[3], m[3]) - max(word[1], m[1])) for m in marks)
    return inside / area


def _check_highlight(page: Any, quoted: list[WordBox]) -> None:
    """Every quoted word >= 90 % covered; no highlight outside the quote's words' lines, or
    before its first word or after its last."""
    numbers = sorted({w.page for w in quoted})
    marks = {n: _marks(page, n) for n in numbers}
    assert all(marks.values()), marks
    for word in quoted:
        assert _covered(_on_screen(page, word), marks[word.page]) >= MIN_COVER, word
    lines = [[w for w in quoted if w.page == n] for n in numbers]
    first, last = _on_screen(page, quoted[0]), _on_screen(page, quoted[-1])
    for n, on_page in zip(numbers, lines, strict=True):
        rows = {(round(_on_screen(page, w)[1]), round(_on_screen(page, w)[3])) for w in on_page}
        for mark in marks[n]:
            assert any(mark[1] >= top - 4 and mark[3] <= bottom + 4 for top, bottom in rows), \
                ("highlight beyond the quoted lines", mark, rows)
    top_row = [m for m in marks[numbers[0]] if abs(m[1] - min(x[1] for x in marks[numbers[0]])) < 1]
    assert min(m[0] for m in top_row) >= first[0] - EDGE_PX, "starts before the quote"
    bottom_row = [m for m in marks[numbers[-1]]
                  if abs(m[3] - max(x[3] for x in marks[numbers[-1]])) < 1]
    assert max(m[2] for m in bottom_row) <= last[2] + EDGE_PX, "ends after the quote"


def test_select_text_on_a_page_and_read_it_back(site: ReaderSite, browser_page: Any,
                                                shots: Any) -> None:
    page = browser_page
    _open(page, site)
    line = [w for w in drawn_words() if w.page == 1][4:15]  # page 1, line 2, all its words
    assert " ".join(w.text for w in line) == PAGES[0][1]
    x0, y0, _, y1 = _on_screen(page, line[0])
    _, _, x1, _ = _on_screen(page, line[-1])
    page.mouse.move(x0 + 1, (y0 + y1) / 2)
    page.mouse.down()
    page.mouse.move(x1 - 1, (y0 + y1) / 2, steps=12)
    page.mouse.up()
    selected = page.evaluate("() => window.getSelection().toString()")
    assert " ".join(selected.split()) == PAGES[0][1]
    shots(page, "selected")


def test_a_citation_highlights_the_quotes_words(site: ReaderSite, browser_page: Any,
                                                shots: Any) -> None:
    page = browser_page
    _open(page, site)
    page.locator(".report-panel .cite[data-page]").first.click()
    page.wait_for_selector(".hl-box")
    _check_highlight(page, words_of(ONE_PAGE_QUOTE))
    assert "lines=3-4" in page.url and f"report={site.job_id}" in page.url
    shots(page, "reader-with-report")


def test_a_citation_across_the_page_break_highlights_both_pages(
        site: ReaderSite, browser_page: Any, shots: Any) -> None:
    page = browser_page
    _open(page, site)
    page.locator(".report-panel .cite[data-page]").nth(1).click()
    page.wait_for_selector("#page-2 .hl-box")
    quoted = words_of(TWO_PAGE_QUOTE)
    assert {w.page for w in quoted} == {1, 2}
    _check_highlight(page, quoted)
    shots(page, "two-pages")


def test_opened_at_a_span_it_highlights_the_reports_words(site: ReaderSite,
                                                          browser_page: Any) -> None:
    page = browser_page
    _open(page, site, "&lines=1:5-2:1")
    page.wait_for_selector("#page-2 .hl-box")
    _check_highlight(page, words_of(TWO_PAGE_QUOTE))


def test_keys_move_between_citations_pages_and_find(site: ReaderSite,
                                                    browser_page: Any) -> None:
    page = browser_page
    _open(page, site)
    page.keyboard.press("n")
    page.wait_for_selector(".cite.active")
    assert "lines=3-4" in page.url
    page.keyboard.press("n")
    page.wait_for_selector("#page-2 .hl-box")
    assert "lines=1:5-2:1" in page.url
    page.keyboard.press("p")
    page.wait_for_function("() => location.search.includes('lines=3-4')")
    page.keyboard.press("j")
    page.wait_for_function("() => document.getElementById('page-now').textContent === '2'")
    page.keyboard.press("k")
    page.wait_for_function("() => document.getElementById('page-now').textContent === '1'")
    page.keyboard.press("/")
    assert page.evaluate("() => document.activeElement.id") == "find-input"
    page.keyboard.type("budget")
    page.wait_for_function("() => document.getElementById('find-count').textContent.includes('of')")
    count = page.inner_text("#find-count")
    expected = sum(w.text.lower().startswith("budget") for w in drawn_words())
    assert count == f"1 of {expected}"
    page.keyboard.press("Enter")
    assert page.inner_text("#find-count") == f"2 of {expected}"
    assert page.locator(".w.found").count() == expected


def test_downloads_and_a_narrow_screen(site: ReaderSite, browser_page: Any, shots: Any) -> None:
    page = browser_page
    _open(page, site)
    with page.expect_download() as markdown:
        page.click(".exports a:text-is('Markdown')")
    assert markdown.value.suggested_filename == f"{site.job_id}.md"
    assert "p. 1, l. 3-4" in Path(markdown.value.path()).read_text(encoding="utf-8")
    with page.expect_download() as bibtex:
        page.click(".exports a:text-is('BibTeX of the cited works')")
    assert "Counting tokens under budgets" in Path(bibtex.value.path()).read_text(encoding="utf-8")
    with page.expect_download() as original:
        page.click(".reader-bar a[download]")
    assert original.value.suggested_filename == "reader.pdf"
    assert Path(original.value.path()).read_bytes()[:5] == b"%PDF-"
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(200)
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert page.evaluate("() => parseFloat(getComputedStyle(document.querySelector("
                         "'.report-body')).fontSize) >= 14")
    shots(page, "narrow")
