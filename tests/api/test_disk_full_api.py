"""A full disk at the API: 507 with the cause named, never a 500 or a blamed file, and
nothing half-stored (a write seam made to fail with ENOSPC, or SQLite's "disk is full")."""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest

from papermind.api.app import create_app
from papermind.config import load_settings
from papermind.library.file_store import FileStore
from papermind.services.job_store import JobStore
from tests.api.server import serve


def _full(*_: Any, **__: Any) -> Any:
    raise OSError(errno.ENOSPC, "No space left on device", "/library/files/.tmp-x-a.pdf")


def test_an_upload_on_a_full_disk_is_a_507_and_stores_nothing(
        home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with serve(create_app(load_settings(home))) as base, \
            httpx.Client(base_url=base, timeout=60) as client:
        monkeypatch.setattr(FileStore, "stage", _full)
        refused = client.post("/api/papers", files={"file": ("p.md", b"# A paper\n\nText.\n")})
        assert refused.status_code == 507, refused.text
        assert refused.headers["content-type"].startswith("application/problem+json")
        assert refused.json()["detail"].startswith("no space left on the device at /library/files")
        monkeypatch.undo()
        assert client.get("/api/papers").json() == []
        again = client.post("/api/papers", files={"file": ("p.md", b"# A paper\n\nText.\n")})
        assert again.status_code == 201, again.text


def test_a_job_submitted_on_a_full_disk_is_a_507(home: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    def disk_is_full(*_: Any, **__: Any) -> Any:
        raise sqlite3.OperationalError("database or disk is full")

    with serve(create_app(load_settings(home))) as base, \
            httpx.Client(base_url=base, timeout=60) as client:
        monkeypatch.setattr(JobStore, "create_or_get_active", disk_is_full)
        refused = client.post("/api/jobs", json={"kind": "question", "question": "Why?"})
        assert refused.status_code == 507, refused.text
        assert refused.json()["detail"].startswith(f"no space left on the device at {home}")
