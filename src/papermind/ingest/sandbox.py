"""PDF parsing and rendering in a worker process under hard limits.

PDFium runs native code on hostile files: a decompression bomb it inflates, a page that makes
it abort, a loop that never ends. Here every parse, page render and word-box read goes to a
long-lived worker process (``sandbox_child``) with an address-space limit (RLIMIT_AS), a CPU
limit per request (RLIMIT_CPU) and a wall-clock deadline; a worker that dies, is killed or
runs out of memory becomes an ``IngestError`` (or ``InputError`` for a stored file) naming
the file, the worker is replaced on the next call, and the calling process (the server, a
batch ``add``, a job) goes on at its own memory. A worker answers one request at a time
(PDFium is not thread-safe either way); the process's workers form a pool with a lane per
kind of request (``sandbox_pool``), each started on first use (one interpreter start).
"""

from __future__ import annotations

import atexit
import logging
import os
import resource
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import TypeAdapter

import papermind
from papermind.config import IngestSettings
from papermind.domain import Page, Paper
from papermind.domain.text_layer import PageWords
from papermind.errors import IngestError, InputError, NotFoundError, PapermindError
from papermind.ingest.sandbox_wire import read_message, write_message

if TYPE_CHECKING:
    from papermind.ingest.sandbox_pool import SandboxPool

log = logging.getLogger(__name__)

REPLY_LIMIT = 512 * 2**20
"""Largest reply accepted from a worker (a parsed paper's JSON, a page's PNG): a worker that
a hostile file took over cannot make this process allocate more."""

PageProgress = Callable[[int, int], None]
"""``on_page(done, total)``: pages read by OCR so far, of those to read."""

_ERRORS: dict[str, type[PapermindError]] = {
    "IngestError": IngestError, "InputError": InputError, "NotFoundError": NotFoundError}
"""The errors a worker may report by name; anything else is a crash of the parser."""


@dataclass(frozen=True)
class Limits:
    memory_mb: int
    cpu_s: int
    timeout_s: float

    @classmethod
    def of(cls, settings: IngestSettings) -> Limits:
        return cls(memory_cap_mb(settings.worker_memory_mb), settings.worker_cpu_s,
                   settings.worker_timeout_s)


def memory_cap_mb(wanted_mb: int) -> int:
    """``wanted_mb``, lowered to this process's own address-space limit: a worker inherits
    that limit and cannot raise it, so asking for more made every start fail."""
    own = [v for v in resource.getrlimit(resource.RLIMIT_AS) if v != resource.RLIM_INFINITY]
    return min([wanted_mb, *(v // 2**20 for v in own)])


class Refused(Exception):
    """The worker did not answer: ``reason`` says why (a limit, a signal)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class ParseSandbox:
    """One worker process (started on first use) and the requests it answers."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._owner = os.getpid()

    def parse(self, data: bytes, name: str, settings: IngestSettings,
              on_page: PageProgress | None = None) -> Paper:
        """``parse_bytes`` in the worker; IngestError when it fails or cannot finish.
        ``on_page(done, total)`` hears each page the worker read by OCR."""
        body = self._call("parse", {"name": name, "settings": settings.model_dump(mode="json")},
                          data, subject=name, error=IngestError, on_progress=on_page)
        return Paper.model_validate_json(body)

    def render(self, path: Path, page: int, scale: float, rotation: int = 0) -> bytes:
        """PNG of a page of the stored PDF at ``path``, turned ``rotation`` degrees clockwise
        (``render_page_png`` in the worker)."""
        return self._call("render", {"path": str(path), "page": page, "scale": scale,
                                     "rotation": rotation}, b"",
                          subject=f"page {page} of the stored PDF", error=InputError)

    def words(self, path: Path, pages: Sequence[Page]) -> list[PageWords]:
        """Word boxes of ``pages`` of the stored PDF at ``path`` (``page_words`` in the worker)."""
        body = self._call("words", {"path": str(path)},
                          TypeAdapter(list[Page]).dump_json(list(pages)),
                          subject="the stored PDF", error=InputError)
        return TypeAdapter(list[PageWords]).validate_json(body)

    def close(self) -> None:
        with self._lock:
            self._stop()

    def _call(self, op: str, args: dict[str, Any], payload: bytes, *, subject: str,
              error: type[PapermindError], on_progress: PageProgress | None = None) -> bytes:
        with self._lock:
            try:
                header, body = self._exchange({"op": op, "args": args}, payload, on_progress)
            except Refused as refused:
                self._stop()
                log.info("parsing worker refused %s: %s", subject, refused.reason)
                raise error(f"{subject} could not be read: the parser {refused.reason}",
                            hint="a decompression bomb or a damaged file? Raise ingest."
                                 "worker_memory_mb, worker_cpu_s or worker_timeout_s if it is "
                                 "trusted (the worker's memory is capped at this process's "
                                 f"own limit: {self.limits.memory_mb} MiB now)") from None
        if header.get("ok"):
            return body
        kind = header.get("error")
        if kind in _ERRORS:
            raise _ERRORS[kind](str(header.get("message")), hint=header.get("hint"))
        if kind == "MemoryError":
            raise error(f"{subject} could not be read: the parser ran out of memory (limit "
                        f"{self.limits.memory_mb} MiB)",
                        hint="raise ingest.worker_memory_mb if the file is trusted")
        log.warning("the parser failed on %s:\n%s", subject, header.get("trace", ""))
        raise error(f"{subject} could not be read (the parser failed on it; the log has details)")

    def _exchange(self, header: dict[str, Any], payload: bytes,
                  on_progress: PageProgress | None = None) -> tuple[dict[str, Any], bytes]:
        """The worker's reply; progress messages before it (a page read by OCR) are passed to
        ``on_progress`` and each starts the wall-clock limit again."""
        proc = self._worker()
        assert proc.stdin is not None and proc.stdout is not None
        try:
            write_message(proc.stdin, header, payload)
        except (BrokenPipeError, OSError):
            raise Refused(self._death(proc)) from None
        while True:
            ready, _, _ = select.select([proc.stdout], [], [], self.limits.timeout_s)
            if not ready:
                raise Refused(f"took longer than {self.limits.timeout_s:g} s")
            reply = read_message(proc.stdout, max_payload=REPLY_LIMIT)
            if reply is None:
                raise Refused(self._death(proc))
            progress = reply[0].get("progress")
            if not isinstance(progress, list) or len(progress) != 2:
                break
            if on_progress is not None:
                on_progress(int(progress[0]), int(progress[1]))
        if reply[0].get("error") == "MemoryError":
            self._stop()
        return reply

    def _death(self, proc: subprocess.Popen[bytes]) -> str:
        try:
            code = proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            return "stopped answering"
        if code == -signal.SIGXCPU:
            return f"used more than {self.limits.cpu_s} s of CPU"
        if code < 0:
            name = signal.Signals(-code).name
            return (f"crashed ({name}), most likely out of memory (limit "
                    f"{self.limits.memory_mb} MiB)")
        return f"stopped (exit status {code})"

    def _worker(self) -> subprocess.Popen[bytes]:
        if self._owner != os.getpid():  # a forked copy of this object: never share its pipes
            self._proc, self._owner = None, os.getpid()
        if self._proc is None or self._proc.poll() is not None:
            self._proc = _start(self.limits)
        return self._proc

    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()


def _start(limits: Limits) -> subprocess.Popen[bytes]:
    root = str(Path(papermind.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [root, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))])}
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "papermind.ingest.sandbox_child", str(limits.memory_mb),
         str(limits.cpu_s)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, env=env, close_fds=True)
    log.debug("parsing worker %s started in %.2f s", proc.pid, time.perf_counter() - started)
    return proc


_SHARED: dict[tuple[Limits, int, tuple[tuple[str, int], ...]], SandboxPool] = {}
_SHARED_LOCK = threading.Lock()


def shared_sandbox(settings: IngestSettings) -> SandboxPool:
    """The process's pool of workers for these limits and lanes (one per process, reused)."""
    from papermind.ingest.sandbox_pool import SandboxPool

    limits = Limits.of(settings)
    small = int(settings.small_file_mb * 2**20)
    key = (limits, small, tuple(sorted(settings.lane_workers.items())))
    with _SHARED_LOCK:
        if key not in _SHARED:
            _SHARED[key] = SandboxPool(limits, settings.lane_workers, small)
        return _SHARED[key]


@atexit.register
def _close_all() -> None:
    for sandbox in list(_SHARED.values()):
        sandbox.close()


class InProcess:
    """The same three requests run in this process (``ingest.isolated`` off: debugging only)."""

    def parse(self, data: bytes, name: str, settings: IngestSettings,
              on_page: PageProgress | None = None) -> Paper:
        from papermind.ingest.parse import parse_bytes

        return parse_bytes(data, name, settings=settings, on_page=on_page)

    def render(self, path: Path, page: int, scale: float, rotation: int = 0) -> bytes:
        from papermind.ingest.page_image import render_page_png

        return render_page_png(path, page, scale=scale, rotation=rotation)

    def words(self, path: Path, pages: Sequence[Page]) -> list[PageWords]:
        from papermind.ingest.page_words import page_words

        return page_words(path, pages)


def pdf_engine(settings: IngestSettings) -> SandboxPool | InProcess:
    """Where this process parses and renders: the shared pool of workers, or in-process
    when ``ingest.isolated`` is off."""
    return shared_sandbox(settings) if settings.isolated else InProcess()
