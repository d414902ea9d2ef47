"""A bounded pool of parsing workers with a queue per kind of request.

One worker for everything made a page image wait minutes behind the OCR of a long scan or a
file that burns CPU. Here each lane (a row of ``LANES``) has its own workers and its own
queue: page renders and word boxes never wait behind a parse, and files under
``ingest.small_file_mb`` never wait behind a larger file or a scan. A request waits only for
a free worker of its own lane; the pool holds ``sum(ingest.lane_workers)`` workers at most,
each started on first use and replaced after it dies (``ParseSandbox``).
"""

from __future__ import annotations

import queue
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from papermind.config import IngestSettings
from papermind.domain import Page, Paper
from papermind.domain.text_layer import PageWords
from papermind.ingest.sandbox import Limits, PageProgress, ParseSandbox


@dataclass(frozen=True)
class Lane:
    """A kind of request with workers of its own."""

    name: str
    serves: str


LANES = (Lane("pages", "page renders and word boxes of stored PDFs"),
         Lane("small", "parses of files under ingest.small_file_mb"),
         Lane("large", "parses of larger files (long scans read by OCR among them)"))


class SandboxPool:
    """``ParseSandbox``'s three requests, each in a worker of its lane."""

    def __init__(self, limits: Limits, workers: dict[str, int], small_bytes: int) -> None:
        self.limits = limits
        self.small_bytes = small_bytes
        self._free: dict[str, queue.Queue[ParseSandbox]] = {}
        self._all: list[ParseSandbox] = []
        for lane in LANES:
            self._free[lane.name] = queue.Queue()
            for _ in range(max(1, workers.get(lane.name, 1))):
                sandbox = ParseSandbox(limits)
                self._all.append(sandbox)
                self._free[lane.name].put(sandbox)

    def lane_of_parse(self, size: int) -> str:
        return "small" if size < self.small_bytes else "large"

    def parse(self, data: bytes, name: str, settings: IngestSettings,
              on_page: PageProgress | None = None) -> Paper:
        with self._worker(self.lane_of_parse(len(data))) as sandbox:
            return sandbox.parse(data, name, settings, on_page)

    def render(self, path: Path, page: int, scale: float, rotation: int = 0) -> bytes:
        with self._worker("pages") as sandbox:
            return sandbox.render(path, page, scale, rotation)

    def words(self, path: Path, pages: Sequence[Page]) -> list[PageWords]:
        with self._worker("pages") as sandbox:
            return sandbox.words(path, pages)

    def close(self) -> None:
        for sandbox in self._all:
            sandbox.close()

    @contextmanager
    def _worker(self, lane: str) -> Iterator[ParseSandbox]:
        sandbox = self._free[lane].get()
        try:
            yield sandbox
        finally:
            self._free[lane].put(sandbox)
