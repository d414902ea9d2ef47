"""GET /api/search takes the same --tag/--collection filters as the CLI."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from papermind.api.app import create_app
from papermind.config import load_settings
from papermind.services.container import Container
from tests.api.server import serve

PAPERS = {"olid.txt": "OLID tweets\n\nIntroduction\n\nThe dataset contains 14,100 tweets.\n",
          "recipes.txt": "Recipes\n\nIntroduction\n\nThe dataset contains 230K recipes.\n"}

pytestmark = pytest.mark.usefixtures("both_backends")  # SQLite and PostgreSQL



def test_search_filters_by_tag_and_collection(home: Path, tmp_path: Path) -> None:
    settings = load_settings(home)
    settings = settings.model_copy(
        update={"search": settings.search.model_copy(update={"embedder": "hashing"})})
    for name, text in PAPERS.items():
        (tmp_path / name).write_text(text)
    with Container(settings) as box:
        olid, recipes = (r.paper_id or "" for r in box.library.add(
            [tmp_path / "olid.txt", tmp_path / "recipes.txt"]))
        box.catalog.label("tag", ["tweets"], [olid])
        box.catalog.label("collection", ["Thesis/Data"], [olid, recipes])
    with serve(create_app(settings)) as base, httpx.Client(base_url=base, timeout=30) as client:
        query = {"q": "dataset contains", "mode": "bm25"}
        tagged = client.get("/api/search", params={**query, "tag": "tweets"})
        assert tagged.status_code == 200, tagged.text
        assert {h["paper_id"] for h in tagged.json()} == {olid}
        both = client.get("/api/search", params={**query, "collection": "Thesis"}).json()
        assert {h["paper_id"] for h in both} == {olid, recipes}
        none = client.get("/api/search", params={**query, "tag": "nope"})
        assert none.status_code == 400 and "no paper matches" in none.text
