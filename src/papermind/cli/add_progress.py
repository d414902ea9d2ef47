"""How `papermind add` reports progress on stderr.

One line per file with its stage and result. In a terminal, above a bar with rate and ETA
(files while parsing and indexing, then chunk texts while embedding, then the library-wide
search indexes); elsewhere (a pipe, a log file) plain lines, including an embedding line every
few seconds, so nothing sits silent.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

    from papermind.services.library import AddEvent, AddResult, ProgressHook

PLAIN_EVERY_S = 5.0
"""How often a plain (non-terminal) embedding line is printed."""


def file_line(done: int, total: int, result: AddResult) -> str:
    """``[3/30] paper.pdf: added in 2.1 s (BM25 now; dense after embedding) - Title``."""
    name = Path(result.path).name
    head = f"[{done}/{total}] {name}: {result.status}"
    if result.status == "failed":
        return f"{head} - {result.reason}"
    timing = f" in {result.seconds:.1f} s" if result.status == "added" else ""
    stage = " (parsed, stored, BM25-indexed)" if result.status == "added" else ""
    return f"{head}{timing}{stage} - {result.title or '(untitled)'}"


def ocr_line(event: AddEvent) -> str:
    """``paper.pdf: OCR page 3/10`` (scanned pages read so far)."""
    return f"{Path(event.path).name}: OCR page {event.done}/{event.total}"


def embed_line(done: int, total: int, elapsed: float) -> str:
    rate = done / elapsed if elapsed > 0 else 0.0
    eta = (total - done) / rate if rate > 0 else 0.0
    tail = "done" if done >= total else f"ETA {eta:.0f} s"
    return f"embedding: {done}/{total} chunks, {rate:.1f} chunks/s, {tail}"


INDEXING = "updating the library-wide search indexes (BM25, dense)"


class _Plain:
    """Plain lines: one per file, one per few seconds of embedding, and a last one."""

    def __init__(self, console: Console, *, pages_only: bool = False) -> None:
        self.console = console
        self.pages_only = pages_only
        self.started = 0.0
        self.last = 0.0
        self.indexing = 0.0

    def __call__(self, event: AddEvent) -> None:
        if event.stage == "ocr":
            self.console.print(ocr_line(event), markup=False, highlight=False)
        elif self.pages_only:
            return
        elif event.stage == "file" and event.result is not None:
            self.console.print(file_line(event.done, event.total, event.result),
                               markup=False, highlight=False, soft_wrap=True)
        elif event.stage == "embedding":
            now = time.perf_counter()
            if self.started == 0.0:
                self.started = self.last = now - 1e-9
                self.console.print(f"embedding {event.total} chunk texts", highlight=False)
            if event.done >= event.total or now - self.last >= PLAIN_EVERY_S:
                self.last = now
                self.console.print(embed_line(event.done, event.total, now - self.started),
                                   highlight=False)
        elif event.stage == "indexing":
            now = time.perf_counter()
            if event.done < event.total:
                self.indexing = now
                self.console.print(INDEXING, highlight=False)
            else:
                self.console.print(f"search indexes up to date in {now - self.indexing:.1f} s",
                                   highlight=False)


class _Bar:
    """A Rich bar (rate, ETA) under the per-file lines; a new task when embedding starts."""

    def __init__(self, console: Console) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.bar: Progress = Progress(
            TextColumn("[bold]{task.fields[stage]}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("ETA"),
            TimeRemainingColumn(), TextColumn("{task.description}"),
            console=console, transient=True)
        self.task: TaskID | None = None
        self.stage = ""

    def __call__(self, event: AddEvent) -> None:
        if event.stage == "start":
            self.bar.start()
            self.task = self.bar.add_task("", total=event.total, stage="adding", rate="")
            return
        assert self.task is not None
        if event.stage == "parsing":
            self.bar.update(self.task, description=escape(Path(event.path).name))
        elif event.stage == "ocr":
            self.bar.update(self.task, description=escape(ocr_line(event)))
        elif event.stage == "file" and event.result is not None:
            self.bar.console.print(escape(file_line(event.done, event.total, event.result)),
                                   highlight=False, soft_wrap=True)
            self.bar.update(self.task, completed=event.done, rate=self._rate("files"))
        elif event.stage == "embedding":
            if self.stage != "embedding":
                self.stage = "embedding"
                self.bar.remove_task(self.task)
                self.task = self.bar.add_task("", total=event.total, stage="embedding", rate="")
            self.bar.update(self.task, completed=event.done, total=event.total,
                            rate=self._rate("chunks"))
        elif event.stage == "indexing":
            if self.stage != "indexing":
                self.stage = "indexing"
                self.bar.remove_task(self.task)
                self.task = self.bar.add_task(INDEXING, total=event.total, stage="indexing",
                                              rate="")
            self.bar.update(self.task, completed=event.done)

    def _rate(self, unit: str) -> str:
        assert self.task is not None
        speed = self.bar.tasks[[t.id for t in self.bar.tasks].index(self.task)].speed
        return f"{speed:.1f} {unit}/s" if speed else ""

    def stop(self) -> None:
        self.bar.stop()


@contextmanager
def add_progress(console: Console) -> Iterator[ProgressHook]:
    """The hook for ``LibraryService.add``: a bar in a terminal, plain lines otherwise; for
    a single file outside a terminal only its OCR pages (its result is the command's
    output, but a scan takes a while)."""
    sink: _Bar | _Plain | None = None

    def on_event(event: AddEvent) -> None:
        nonlocal sink
        if event.stage == "start":
            if console.is_terminal:
                sink = _Bar(console)
            else:
                sink = _Plain(console, pages_only=event.total == 1)
        if sink is not None:
            sink(event)

    try:
        yield on_event
    finally:
        if isinstance(sink, _Bar):
            sink.stop()
