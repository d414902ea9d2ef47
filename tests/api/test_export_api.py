"""GET /api/export: every registered format as a download; an unknown one is a problem."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from papermind.api.app import create_app
from papermind.config import load_settings
from papermind.services.container import Container
from papermind.services.export_formats import EXPORT_FORMATS, FORMATS
from tests.api.server import serve

PAPERS = {"olid.txt": "OLID tweets\n\nIntroduction\n\nThe dataset contains 14,100 tweets.\n",
          "recipes.txt": "Recipes\n\nIntroduction\n\nThe dataset contains 230K recipes.\n"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[httpx.Client, str]]:
    home = tmp_path_factory.mktemp("home")
    settings = load_settings(home)
    settings = settings.model_copy(
        update={"search": settings.search.model_copy(update={"embedder": "hashing"})})
    for name, text in PAPERS.items():
        (home / name).write_text(text)
    with Container(settings) as box:
        olid = [r.paper_id or "" for r in box.library.add([home / name for name in PAPERS])][0]
        box.catalog.label("tag", ["tweets"], [olid])
    with serve(create_app(settings)) as base, httpx.Client(base_url=base, timeout=30) as http:
        yield http, olid


@pytest.mark.parametrize("name", FORMATS)
def test_each_format_is_a_download_of_the_library(client: tuple[httpx.Client, str],
                                                  name: str) -> None:
    http, _ = client
    row = EXPORT_FORMATS[name]
    got = http.get("/api/export", params={"format": name})
    assert got.status_code == 200, got.text
    assert got.headers["content-type"].startswith(row.media_type)
    assert got.headers["content-disposition"] == f'attachment; filename="papermind{row.suffix}"'
    assert got.headers["x-total-count"] == "2"
    assert "OLID" in got.text and "Recipes" in got.text


def test_the_default_is_bibtex_and_filters_narrow(client: tuple[httpx.Client, str]) -> None:
    http, olid = client
    got = http.get("/api/export", params={"tag": "tweets"})
    assert got.status_code == 200 and got.text.lstrip().startswith("@")
    assert "OLID" in got.text and "Recipes" not in got.text
    assert http.get("/api/export", params={"paper": olid[:8]}).headers["x-total-count"] == "1"
    assert http.get("/api/export", params={"tag": "nope"}).status_code == 400


def test_an_unknown_format_is_a_problem_naming_the_known_ones(
        client: tuple[httpx.Client, str]) -> None:
    http, _ = client
    got = http.get("/api/export", params={"format": "docx"})
    assert got.status_code == 400
    assert got.headers["content-type"].startswith("application/problem+json")
    problem = got.json()
    assert problem["type"].endswith("/bad-input")
    assert "unknown format 'docx'" in problem["detail"]
    assert all(name in problem["detail"] for name in FORMATS)


def test_the_openapi_document_lists_the_formats(client: tuple[httpx.Client, str]) -> None:
    http, _ = client
    operation = http.get("/openapi.json").json()["paths"]["/api/export"]["get"]
    fmt = next(p for p in operation["parameters"] if p["name"] == "format")
    assert fmt["schema"]["enum"] == list(FORMATS)
    assert set(operation["responses"]["200"]["content"]) == {
        f.media_type for f in EXPORT_FORMATS.values()}
