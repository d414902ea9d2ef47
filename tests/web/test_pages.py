"""Web UI pages over HTTP (no browser): content, highlights from line boxes, odd input."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from papermind.api.app import create_app
from papermind.config import ApiSettings, SearchSettings, load_settings
from papermind.domain.job import Job
from papermind.services.jobs import JobOutcome
from tests.api.server import serve, wait_for
from tests.web.paper_pdf import reading_paper_pdf

SCALE = 1.5


async def instant(job: Job, progress: Any) -> JobOutcome:
    progress("noop", {"event": "finished", "summary": "nothing to do"})
    return JobOutcome(usage={"tokens_in": 12, "tokens_out": 3, "cost_usd": 0.0})


def _settings(home: Path, **api: Any) -> Any:
    settings = load_settings(home)
    return settings.model_copy(update={"search": SearchSettings(embedder="hashing"),
                                       "api": ApiSettings(**api)})


@pytest.fixture
def site(home: Path, tmp_path: Path) -> Iterator[tuple[httpx.Client, str, str]]:
    """A server with a PDF and a Markdown paper; yields (client, pdf id, markdown id)."""
    app = create_app(_settings(home), runners={"question": instant, "reading": instant})
    with serve(app) as base, httpx.Client(base_url=base, timeout=30) as client:
        pdf = reading_paper_pdf(tmp_path / "paper.pdf").read_bytes()
        pdf_id = client.post("/api/papers", files={"file": ("paper.pdf", pdf)}).json()["id"]
        md = b"# Plain Notes\n\n## 1 Intro\n\nRouting sends tokens to experts.\n"
        md_id = client.post("/api/papers", files={"file": ("notes.md", md)}).json()["id"]
        yield client, pdf_id, md_id


def test_library_lists_and_searches(site: tuple[httpx.Client, str, str]) -> None:
    client, pdf_id, _ = site
    home = client.get("/").text
    assert "Sparse Mixture Routing" in home and "Plain Notes" in home
    hits = client.get("/", params={"q": "load loss variance"}).text
    assert re.search(rf'href="/papers/{pdf_id}/pages/1\?lines=\d+-\d+"', hits), hits[-2000:]


def test_the_library_table_pages_and_hits_keep_their_titles(
        site: tuple[httpx.Client, str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    from papermind.web import library

    client, pdf_id, md_id = site
    monkeypatch.setattr(library, "LIBRARY_PAGE", 1)
    newest = client.get("/").text
    assert "Plain Notes" in newest and "Sparse Mixture Routing" not in newest.split("Papers 1")[0]
    assert "Papers 1–1 of 2" in newest and 'href="/?page=2"' in newest
    older = client.get("/", params={"page": 2}).text
    assert "Papers 2–2 of 2" in older and 'href="/?page=1"' in older
    assert client.get("/", params={"page": 99}).text.count("Papers 2–2 of 2") == 1  # the last
    assert client.get("/", params={"page": 0}).status_code == 422
    hits = client.get("/", params={"q": "load loss variance"}).text  # a hit off this page
    assert re.search(r'class="cite"[^>]*>Sparse Mixture Routing', hits), hits[-2000:]


def test_page_images_are_png(site: tuple[httpx.Client, str, str]) -> None:
    client, pdf_id, md_id = site
    image = client.get(f"/api/papers/{pdf_id}/pages/1.png", params={"scale": SCALE})
    assert image.headers["content-type"] == "image/png" and image.content[:4] == b"\x89PNG"
    assert client.get(f"/api/papers/{md_id}/pages/1.png").status_code == 404


def test_job_page_report_and_usage(site: tuple[httpx.Client, str, str]) -> None:
    client, pdf_id, _ = site
    started = client.post("/ui/jobs", data={"kind": "reading", "paper_id": pdf_id},
                          follow_redirects=False)
    assert started.status_code == 303
    job_id = started.headers["location"].rsplit("/", 1)[-1]
    assert wait_for(client, job_id)["status"] == "completed"
    page = client.get(f"/jobs/{job_id}").text
    assert 'data-status="completed"' in page
    assert '<li class="done" data-node="noop">Noop: nothing to do</li>' in page
    assert "Tokens in 12, out 3" in page and "Cancel" not in page, "usage, and no Cancel"
    assert "Sparse Mixture Routing" in page, "the job names its paper by title"
    assert client.get(f"/jobs/{job_id}/report").status_code == 404  # the runner wrote none


ODD_PAGES = ["/papers/{pdf}/pages/0", "/papers/{pdf}/pages/-1", "/papers/{pdf}/pages/99999999999",
             "/papers/{pdf}/pages/1?lines=9-2", "/papers/{pdf}/pages/1?lines=x", "/papers/%00",
             "/papers/..%2F..%2Fetc", "/jobs/nope", "/jobs/nope/report", "/?q=%22NEAR(",
             "/?q=%00", "/static/../app.py", "/api/papers/{md}/pages/1.png"]


def test_odd_input_never_breaks_a_page(site: tuple[httpx.Client, str, str]) -> None:
    client, pdf_id, md_id = site
    for url in ODD_PAGES:
        response = client.get(url.format(pdf=pdf_id, md=md_id))
        assert response.status_code < 500 and "Traceback" not in response.text, url
    forms = [{"kind": "bogus"}, {"kind": "reading"}, {"kind": "reading", "paper_id": "zz"},
             {"kind": "question", "question": " "}, {"kind": "question", "question": "q",
                                                     "paper_ids": ",,zz"}]
    for form in forms:
        response = client.post("/ui/jobs", data=form, follow_redirects=False)
        assert response.status_code == 303 and "error=" in response.headers["location"], form
    empty = client.post("/ui/upload", files={"file": ("x.pdf", b"")}, follow_redirects=False)
    assert "error=the%20upload%20is%20empty" in empty.headers["location"]
    binary = client.post("/ui/upload", files={"file": ("x.pdf", bytes(range(256)) * 4)},
                         follow_redirects=False)
    assert "neither%20a%20PDF" in binary.headers["location"]


def test_login_cookie_opens_the_ui_when_a_token_is_set(home: Path) -> None:
    with serve(create_app(_settings(home, token="s3cret"))) as base, \
            httpx.Client(base_url=base, timeout=30) as client:
        assert client.get("/").status_code == 401
        assert client.get("/login").status_code == 200
        wrong = client.post("/login", data={"token": "nope"}, follow_redirects=True)
        assert wrong.status_code == 401
        client.cookies.clear()
        right = client.post("/login", data={"token": "s3cret"}, follow_redirects=True)
        assert right.status_code == 200 and "Library" in right.text


def test_errors_are_pages_for_browsers_and_problems_for_scripts(
        site: tuple[httpx.Client, str, str]) -> None:
    client, _, _ = site
    browser = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
    for url in ("/papers/zz", "/jobs/nope", "/api/papers/zz", "/papers/x/pages/abc"):
        page = client.get(url, headers=browser)
        assert page.status_code in (404, 422) and page.headers["content-type"].startswith(
            "text/html"), url
        assert '<header class="app">' in page.text and "see `papermind list`" not in page.text
    for accept in ("*/*", "application/json", "application/problem+json, text/html;q=0.5"):
        api = client.get("/papers/zz", headers={"Accept": accept})
        assert api.headers["content-type"] == "application/problem+json", accept
    zh = client.get("/papers/zz", headers={**browser, "Accept-Language": "zh-CN"})
    assert "未找到" in zh.text and 'lang="zh"' in zh.text


def test_ask_a_paper_then_follow_up_in_its_thread(site: tuple[httpx.Client, str, str]) -> None:
    client, pdf_id, _ = site
    asked = client.post("/ui/ask", data={"question": "What does the router do?",
                                         "paper_ids": pdf_id}, follow_redirects=False)
    assert asked.status_code == 303 and asked.headers["location"].startswith("/ask/")
    first = asked.headers["location"].split("/")[2].split("#")[0]
    assert wait_for(client, first)["status"] == "completed"
    thread = client.get(f"/ask/{first}").text
    assert "Ask about Sparse Mixture Routing" in thread and "What does the router do?" in thread
    assert f'name="follows" value="{first}"' in thread
    again = client.post("/ui/ask", data={"question": "And its cost?", "follows": first},
                        follow_redirects=False)
    second = again.headers["location"].split("/")[2].split("#")[0]
    request = client.get(f"/api/jobs/{second}").json()["request"]
    assert request["follows"] == first and request["paper_ids"] == [pdf_id], "scope carried on"
    wait_for(client, second)
    both = client.get(f"/ask/{second}").text.split("<main", 1)[1]
    assert both.index("What does the router do?") < both.index("And its cost?")
    empty = client.post("/ui/ask", data={"question": " ", "follows": first},
                        follow_redirects=False)
    assert empty.headers["location"].startswith(f"/ask/{first}?error=")
    reading = client.post("/ui/jobs", data={"kind": "reading", "paper_id": pdf_id},
                          follow_redirects=False).headers["location"].rsplit("/", 1)[-1]
    wrong = client.post("/ui/ask", data={"question": "q", "follows": reading},
                        follow_redirects=False)
    assert "error=a%20follow-up%20must%20follow%20a%20question" in wrong.headers["location"]


def test_a_paper_page_says_when_its_title_is_a_guess(site: tuple[httpx.Client, str, str]) -> None:
    client, pdf_id, md_id = site
    guessed = client.post("/api/papers", files={"file": ("n.txt", b"Loose notes\nbody text\n")})
    note = "The title is a guess"
    assert note in client.get(f"/papers/{guessed.json()['id']}").text
    assert note not in client.get(f"/papers/{md_id}").text
    assert note not in client.get(f"/papers/{pdf_id}").text
    listed = {row["id"]: row for row in client.get("/api/papers").json()}
    assert listed[guessed.json()["id"]]["title_guessed"] is True
    assert listed[md_id]["title_guessed"] is False
