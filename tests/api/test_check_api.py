"""GET /api/papers/{id}/check: the same findings as `papermind check --json`, synchronously;
problem responses for an unknown paper or venue."""

from __future__ import annotations

from pathlib import Path

import httpx

from papermind.api.app import create_app
from papermind.config import SearchSettings, load_settings
from tests.api.server import serve

DRAFT = Path(__file__).parents[1] / "grounding" / "check_fixtures" / "draft.md"


def test_check_over_http(home: Path) -> None:
    settings = load_settings(home).model_copy(
        update={"search": SearchSettings(embedder="hashing")})
    with serve(create_app(settings)) as base, httpx.Client(base_url=base, timeout=60) as client:
        paper_id = client.post("/api/papers", files={"file": ("draft.md", DRAFT.read_bytes())}
                               ).json()["id"]
        url = f"/api/papers/{paper_id[:10]}/check"
        out = client.get(url).json()
        assert out["paper_id"] == paper_id and out["venue"] is None and not out["anonymous"]
        missing = next(f for f in out["findings"] if f["kind"] == "citation_without_entry")
        assert missing["anchor"]["line_start"] == 13 and missing["severity"] == "medium"
        assert not any(f["aspect"] == "anonymity" for f in out["findings"])
        blind = client.get(url, params={"anonymous": "true", "venue": "acl"}).json()
        assert any(f["kind"] == "self_identifying" for f in blind["findings"])
        assert blind["venue"] == "acl" and blind["counts"]["high"] > out["counts"]["high"]
        bad = client.get(url, params={"venue": "nowhere"})
        assert bad.status_code == 400
        assert bad.headers["content-type"].startswith("application/problem+json")
        assert "unknown venue" in bad.json()["detail"]
        gone = client.get("/api/papers/feedface00/check")
        assert gone.status_code == 404
        assert gone.headers["content-type"].startswith("application/problem+json")
