"""Uploads added in the background: stages in order, duplicates, refusals, unknown ids."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from papermind.errors import NotFoundError
from papermind.services.upload_queue import Upload, UploadQueue
from tests.support.containers import hashing_container


def _finish(queue: UploadQueue, upload: Upload, timeout: float = 30.0) -> Upload:
    deadline = time.monotonic() + timeout
    while not (now := queue.get(upload.id)).finished:
        assert time.monotonic() < deadline, now
        time.sleep(0.02)
    return now


def test_uploads_go_through_parse_index_embed(tmp_path: Path) -> None:
    with hashing_container(tmp_path) as box:
        queue = UploadQueue(box.library)
        try:
            text = b"# Quasar lattices\n\nWe study quasar lattices in depth.\n"
            first = queue.submit(text, "q.md")
            assert first.state == "waiting" and not first.finished
            done = _finish(queue, first)
            assert done.state == "added" and done.stages == ("parse", "index", "embed")
            assert done.title == "Quasar lattices" and done.paper_id
            again = _finish(queue, queue.submit(text, "copy.md"))
            assert again.state == "exists" and again.paper_id == done.paper_id
            assert again.stages == (), "a duplicate is not parsed again"
            broken = _finish(queue, queue.submit(b"%PDF-1.4 not really", "x.pdf"))
            assert broken.state == "failed" and broken.reason and broken.paper_id is None
            refused = queue.refused("big.pdf", "the upload is larger than 1 MiB")
            assert queue.get(refused.id).finished
            with pytest.raises(NotFoundError):
                queue.get("nope")
        finally:
            queue.close()


def test_waiting_uploads_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from papermind.services.library import LibraryService

    release = threading.Event()
    original = LibraryService.add_bytes

    def slow(self: LibraryService, *args: object, **kwargs: object) -> object:
        release.wait(30)
        return original(self, *args, **kwargs)  # type: ignore[arg-type]
    monkeypatch.setattr(LibraryService, "add_bytes", slow)
    with hashing_container(tmp_path) as box:
        queue = UploadQueue(box.library, max_waiting=2)
        try:
            made = [queue.submit(b"# T%d\n\nText %d.\n" % (n, n), f"{n}.md") for n in range(5)]
            refused = [u for u in made if u.state == "failed"]
            assert len(refused) >= 2 and "already waiting" in refused[0].reason
            release.set()
            assert _finish(queue, made[0]).state == "added"
        finally:
            release.set()
            queue.close()
