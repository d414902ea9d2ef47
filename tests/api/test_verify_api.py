"""POST /api/papers/{id}/verify: the same answer as `papermind verify --json`."""

from __future__ import annotations

from pathlib import Path

import httpx

from papermind.api.app import create_app
from papermind.config import SearchSettings, load_settings
from tests.api.server import serve

NOTES = b"Widget study\n\nWe measured a throughput of 84.7% on WidgetBench.\n"


def test_verify_over_http(home: Path) -> None:
    settings = load_settings(home).model_copy(
        update={"search": SearchSettings(embedder="hashing")})
    with serve(create_app(settings)) as base, httpx.Client(base_url=base, timeout=30) as client:
        paper_id = client.post("/api/papers", files={"file": ("n.txt", NOTES)}).json()["id"]
        url = f"/api/papers/{paper_id[:10]}/verify"
        ok = client.post(url, json={"claim": "Throughput is 84.7%", "lines": "1:3"}).json()
        assert ok["found"] and ok["evidence"]["status"] == "found · support unchecked"
        assert ok["evidence"]["anchor"]["label"] == "p. 1, l. 3" and not ok["judged"]
        bad = client.post(url, json={"claim": "Throughput is 48.7%", "lines": "1:3"}).json()
        assert bad["support"] == {"verdict": "contradicted", "by": "code",
                                  "reason": "the claim says 48.7% where the cited text says 84.7%"}
        missing = client.post(url, json={"claim": "x", "lines": "9:9"}).json()
        assert missing["found"] is False
        assert missing["evidence"]["reasons"] == ["the paper has no line 9:9"]
        problem = client.post(url, json={"claim": "x"})
        assert problem.status_code == 400 or problem.status_code == 422
        assert problem.headers["content-type"].startswith("application/problem+json")
        assert client.post("/api/papers/feedface00/verify",
                           json={"claim": "x", "lines": "1:1"}).status_code == 404
