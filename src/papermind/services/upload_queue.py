"""Uploads that return at once: each file is added in the background, its stage watchable.

The web UI posts files, gets an upload id per file, and polls where each one is: waiting,
parse, index, embed, then added (with the paper), exists (the paper already there) or failed
(the reason). One worker thread adds the files in order (the library has one writer).
"""

from __future__ import annotations

import logging
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Literal

from papermind.errors import NotFoundError
from papermind.services.library import LibraryService

log = logging.getLogger(__name__)

UploadState = Literal["waiting", "parse", "ocr", "index", "embed", "added", "exists", "failed"]
FINISHED = frozenset({"added", "exists", "failed"})
KEEP = 500
"""Finished uploads remembered (oldest forgotten first)."""


@dataclass(frozen=True)
class Upload:
    """One uploaded file and how far its add has come."""

    id: str
    name: str
    state: UploadState = "waiting"
    done: int = 0
    total: int = 0
    paper_id: str | None = None
    title: str = ""
    reason: str = ""
    stages: tuple[str, ...] = ()
    """The stages it has entered so far, in order."""

    @property
    def finished(self) -> bool:
        return self.state in FINISHED


class UploadQueue:
    """Adds uploaded files to ``library`` one at a time, off the request."""

    def __init__(self, library: LibraryService, max_waiting: int = 8) -> None:
        self._library = library
        self.max_waiting = max_waiting
        self._uploads: dict[str, Upload] = {}
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="papermind-upload")

    def submit(self, data: bytes, name: str) -> Upload:
        """Queue ``data`` (already size- and type-checked) and return its record at once;
        refused (a failed record) while ``max_waiting`` files already wait: each holds its
        bytes in memory until its turn."""
        with self._lock:
            waiting = sum(1 for u in self._uploads.values() if u.state == "waiting")
        if waiting >= self.max_waiting:
            return self.refused(name, f"{waiting} uploads are already waiting to be added; "
                                      "try again when they are done")
        upload = Upload(uuid.uuid4().hex, name)
        self._set(upload)
        self._pool.submit(self._add, upload, data)
        return upload

    def refused(self, name: str, reason: str) -> Upload:
        """Record a file refused before its add (too large, not a PDF or text)."""
        upload = Upload(uuid.uuid4().hex, name, state="failed", reason=reason)
        self._set(upload)
        return upload

    def get(self, upload_id: str) -> Upload:
        with self._lock:
            found = self._uploads.get(upload_id)
        if found is None:
            raise NotFoundError("no such upload (the server may have restarted since)")
        return found

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)

    def _set(self, upload: Upload) -> None:
        with self._lock:
            self._uploads[upload.id] = upload
            finished = [k for k, v in self._uploads.items() if v.finished]
            for key in finished[:max(0, len(finished) - KEEP)]:
                del self._uploads[key]

    def _add(self, upload: Upload, data: bytes) -> None:
        def on_stage(stage: str, done: int, total: int) -> None:
            now = self.get(upload.id)
            stages = now.stages if now.stages[-1:] == (stage,) else (*now.stages, stage)
            self._set(replace(now, state=stage, done=done, total=total,  # type: ignore[arg-type]
                              stages=stages))

        try:
            result = self._library.add_bytes(data, upload.name, on_stage=on_stage)
        except Exception:  # the worker must outlive one broken file
            log.exception("upload %s could not be added", upload.name)
            self._set(replace(self.get(upload.id), state="failed",
                              reason=f"{upload.name} could not be added (the log has details)"))
            return
        self._set(replace(self.get(upload.id), state=result.status, paper_id=result.paper_id,
                          title=result.title, reason=result.reason))
