"""The reader over HTTP (no browser): the text layer's word boxes, the report beside the
pages with word-exact highlights, downloads, and odd input."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support.reader_paper import ReaderSite, drawn_words, reader_site

WORD = re.compile(r'<span class="w" id="w(\d+)-(\d+)-(\d+)" style="left: ([\d.]+)%; top: ([\d.]+)%; '
                  r'width: ([\d.]+)%; height: ([\d.]+)%; font-size: [\d.]+cqw">([^<]*) </span>')
W, H = 612.0, 792.0


@pytest.fixture
def site(home: Path, tmp_path: Path) -> Iterator[ReaderSite]:
    with reader_site(home, tmp_path) as running:
        yield running


def _client(site: ReaderSite) -> httpx.Client:
    return httpx.Client(base_url=site.base, timeout=30)


def test_every_drawn_word_is_in_the_text_layer_at_its_box(site: ReaderSite) -> None:
    with _client(site) as client:
        html = client.get(f"/papers/{site.paper.id}/pages/1").text
    layer = [(int(p), m[7], float(m[3]) * W / 100, float(m[3]) * W / 100 + float(m[5]) * W / 100,
              float(m[4]) * H / 100, float(m[4]) * H / 100 + float(m[6]) * H / 100)
             for m in WORD.findall(html) for p in [m[0]]]
    drawn = [w for w in drawn_words() if w.text != "References"]
    assert [(p, t) for p, t, *_ in layer if t != "References"] == [(w.page, w.text) for w in drawn]
    for (_, _, x0, x1, y0, y1), want in zip([x for x in layer if x[1] != "References"], drawn,
                                            strict=True):
        assert abs(x0 - want.x0) < 0.5 and abs(x1 - want.x1) < 0.5, want
        assert y0 <= want.y0 + 0.5 and y1 >= want.y1 - 0.5, want  # covers the glyphs' height


def test_report_sits_beside_the_pages_with_word_highlights(site: ReaderSite) -> None:
    with _client(site) as client:
        html = client.get(f"/papers/{site.paper.id}/pages/1",
                          params={"report": site.job_id}).text
    panel = html.split('id="report-panel"', 1)[1]
    assert "Scripted reading" in panel and "9000px" not in html  # its own style is dropped
    assert f'data-report="{site.job_id}"' in html
    marks = json.loads(re.search(r'<script type="application/json" id="highlights">(.*?)'
                                 r"</script>", html, re.S)[1])
    one, two, line = site.items
    assert marks[f"3-4\n{one['text']}"] == [[1, 3, i] for i in range(2, 12)] + \
        [[1, 4, i] for i in range(4)]
    assert marks[f"1:5-2:1\n{two['text']}"] == [[1, 5, i] for i in range(7, 11)] + \
        [[2, 1, i] for i in range(4)]
    assert marks[f"2-2\n{line['text']}"] == [[1, 2, i] for i in range(11)]
    assert 'data-lines="1:5-2:1"' in panel and f'data-text="{two["text"]}"' in panel
    for fmt in ("md", "html", "json"):
        assert f"/api/jobs/{site.job_id}/result?format={fmt}" in panel
    assert f"/jobs/{site.job_id}/cited.bib" in panel


def test_a_span_across_pages_is_passed_to_the_reader(site: ReaderSite) -> None:
    with _client(site) as client:
        html = client.get(f"/papers/{site.paper.id}/pages/2", params={"lines": "1:5-2:1"}).text
    assert 'data-span="1,5,2,1"' in html and "Cited: p. 1, l. 5 - p. 2, l. 1" in html
    assert 'id="page-1"' in html and 'id="page-2"' in html


def test_downloads_original_report_and_cited_works(site: ReaderSite, tmp_path: Path) -> None:
    with _client(site) as client:
        original = client.get(f"/papers/{site.paper.id[:12]}/original")
        bib = client.get(f"/jobs/{site.job_id}/cited.bib")
        read = client.get(f"/jobs/{site.job_id}/read", follow_redirects=False)
        md = client.get(f"/papers/{site.md_id}/original")
    assert original.content == (tmp_path / "reader.pdf").read_bytes()
    assert 'filename="reader.pdf"' in original.headers["content-disposition"]
    assert original.headers["content-type"] == "application/pdf"
    assert bib.headers["content-type"].startswith("application/x-bibtex")
    assert "attachment" in bib.headers["content-disposition"]
    assert re.search(r"@\w+\{author2020counting,", bib.text), bib.text
    assert "Counting tokens under budgets" in bib.text and "Passage selection" not in bib.text
    assert read.status_code == 303
    assert read.headers["location"] == f"/papers/{site.paper.id}/pages/1?report={site.job_id}"
    assert md.text.startswith("# Plain Notes") and "text/markdown" in md.headers["content-type"]


def test_a_paper_without_pdf_shows_its_lines(site: ReaderSite) -> None:
    with _client(site) as client:
        html = client.get(f"/papers/{site.md_id}/pages/1", params={"lines": "1-1"}).text
    assert '<li value="1" data-l="1" class="hl">' in html and ".png" not in html
    assert '<li value="2" data-l="2">' in html  # lines outside the span: not marked
    assert 'data-span="1,1,1,1"' in html


ODD = ["/papers/{pdf}/pages/0", "/papers/{pdf}/pages/3", "/papers/{pdf}/pages/1?lines=9-2",
       "/papers/{pdf}/pages/1?lines=x", "/papers/{pdf}/pages/1?report=nope",
       "/papers/{pdf}/pages/1?report=" + "x" * 200, "/papers/nope/original", "/jobs/nope/read",
       "/jobs/nope/cited.bib", "/papers/%00/original"]


def test_odd_input_never_breaks_the_reader(site: ReaderSite) -> None:
    with _client(site) as client:
        for url in ODD:
            response = client.get(url.format(pdf=site.paper.id), follow_redirects=False)
            assert 400 <= response.status_code < 500 or url.endswith("lines=x") or \
                url.endswith("9-2"), (url, response.status_code)
            assert response.status_code < 500 and "Traceback" not in response.text, url
