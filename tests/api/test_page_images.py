"""Page images: parallel renders next to a parsing upload never crash the server (one
PDFium lock per process), and a rendered page is served from the disk cache afterwards."""

from __future__ import annotations

from pathlib import Path

import httpx

from papermind.api.app import create_app
from papermind.config import load_settings
from tests.api.page_burst import PAGES, _pdf, run_bursts
from tests.api.server import serve


def test_parallel_page_images_during_an_upload_all_succeed(tmp_path: Path) -> None:
    result = run_bursts(tmp_path, rounds=2, parallel=40)
    assert result.alive, (tmp_path / "server.log").read_text()[-2000:]
    assert result.statuses == [200] * 80
    assert result.upload_statuses == [201, 201]
    assert result.good_upload_after == 201


def test_a_rendered_page_is_cached_on_disk(home: Path) -> None:
    with serve(create_app(load_settings(home))) as base, httpx.Client(base_url=base, timeout=60) as client:
        paper_id = client.post("/api/papers", files={"file": ("p.pdf", _pdf("Cached", 2))}
                               ).json()["id"]
        first = client.get(f"/api/papers/{paper_id}/pages/2.png")
        cached = home / "cache" / "pages" / paper_id / "2@1.5.png"
        assert first.status_code == 200 and first.content.startswith(b"\x89PNG")
        assert cached.read_bytes() == first.content
        cached.write_bytes(b"\x89PNG from the cache")
        assert client.get(f"/api/papers/{paper_id}/pages/2.png").content == (
            b"\x89PNG from the cache")
        assert client.get(f"/api/papers/{paper_id}/pages/{PAGES + 100}.png").status_code == 404
        huge = client.get(f"/api/papers/{paper_id}/pages/{'9' * 25}.png")
        assert huge.status_code == 422
        assert client.delete(f"/api/papers/{paper_id}").status_code == 200
        assert not cached.parent.exists()
