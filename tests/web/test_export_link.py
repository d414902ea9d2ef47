"""The library page offers one export link per registered format, and each one downloads the
library (the API's GET /api/export) in a browser too."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from papermind.api.app import create_app
from papermind.config import ApiSettings, SearchSettings, load_settings
from papermind.services.export_formats import EXPORT_FORMATS
from tests.api.server import serve

PAPER = "OLID tweets\n\nIntroduction\n\nThe dataset contains 14,100 tweets.\n"


def _settings(home: Path, **api: Any) -> Any:
    settings = load_settings(home).model_copy(update={"search": SearchSettings(embedder="hashing")})
    return settings.model_copy(update={"api": ApiSettings(**api)}) if api else settings


def _add_paper(client: TestClient, **headers: str) -> None:
    client.post("/api/papers", files={"file": ("olid.txt", PAPER.encode())},
                headers=headers).raise_for_status()


def test_each_export_link_downloads_the_library(home: Path) -> None:
    with TestClient(create_app(_settings(home)), base_url="http://127.0.0.1") as client:
        assert 'id="export"' not in client.get("/").text, "no export of an empty library"
        _add_paper(client)
        page = client.get("/").text
        links = re.findall(r'<a href="(/api/export\?format=[^"]+)"[^>]*>([^<]+)</a>', page)
        assert [label for _, label in links] == [f.label for f in EXPORT_FORMATS.values()]
        for (href, _), row in zip(links, EXPORT_FORMATS.values(), strict=True):
            got = client.get(href)
            assert got.status_code == 200 and "OLID" in got.text
            assert got.headers["content-type"].startswith(row.media_type)


def test_the_links_work_with_the_login_cookie_when_a_token_is_set(home: Path) -> None:
    with TestClient(create_app(_settings(home, token="s3cret")),
                    base_url="http://127.0.0.1") as client:
        _add_paper(client, authorization="Bearer s3cret")
        client.cookies.set("papermind_token", "s3cret")
        assert 'href="/api/export?format=bibtex"' in client.get("/").text
        assert "OLID" in client.get("/api/export?format=bibtex").text


def test_the_export_link_downloads_in_a_browser(home: Path, browser_page: Any) -> None:
    settings = _settings(home)
    with TestClient(create_app(settings), base_url="http://127.0.0.1") as client:
        _add_paper(client)
    with serve(create_app(settings)) as base:
        page = browser_page
        page.goto(base + "/")
        with page.expect_download() as info:
            page.click("#export a[href$='format=ris']")
        download = info.value
        assert download.suggested_filename == "papermind.ris"
        assert "OLID" in Path(download.path()).read_text(encoding="utf-8")
