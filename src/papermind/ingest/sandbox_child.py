"""The parsing worker process: ``python -m papermind.ingest.sandbox_child MEMORY_MB CPU_S``.

It sets its own limits (address space, no core files), then answers requests on stdin/stdout
until stdin closes: parse bytes into a Paper, render a page to PNG, or read a page's word
boxes. Before each request its CPU limit is moved to what it has used plus ``CPU_S``, so one
long-lived worker gives every request the same CPU budget. Messages are framed by
``sandbox_wire``; replies carry JSON and bytes only, never pickles, so a worker that a hostile
file took over cannot run code in the process that asked.
"""

from __future__ import annotations

import os
import resource
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from papermind.errors import PapermindError
from papermind.ingest.sandbox_wire import read_message, write_message


def main(argv: list[str]) -> int:
    memory_mb, cpu_s = int(argv[0]), int(argv[1])
    wire_in, wire_out = sys.stdin.buffer, os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # stray prints from native code must not corrupt the replies
    _load()
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    limit = memory_mb * 2**20
    hard = resource.getrlimit(resource.RLIMIT_AS)[1]
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)  # a limit this process inherited cannot be raised
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    while True:
        message = read_message(wire_in)
        if message is None:
            return 0
        header, payload = message
        _limit_cpu(cpu_s)
        reply, body, fatal = _answer(header, payload, _progress(wire_out))
        write_message(wire_out, reply, body)
        if fatal:
            return 3  # after MemoryError the interpreter's state is not to be trusted


def _load() -> None:
    """Import what every request needs before the memory limit applies."""
    import papermind.ingest.page_image
    import papermind.ingest.page_words
    import papermind.ingest.parse  # noqa: F401


def _limit_cpu(cpu_s: int) -> None:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    used = int(usage.ru_utime + usage.ru_stime) + 1
    hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
    soft = used + cpu_s
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def _progress(wire_out: Any) -> Callable[[int, int, int], None]:
    """Before each page read by OCR: more CPU for it, and a progress message to the caller
    (which starts its wall-clock limit again)."""
    def report(done: int, total: int, page_cpu_s: int) -> None:
        soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
        if soft != resource.RLIM_INFINITY:
            soft += page_cpu_s
            resource.setrlimit(resource.RLIMIT_CPU, (
                soft if hard == resource.RLIM_INFINITY else min(soft, hard), hard))
        write_message(wire_out, {"progress": [done, total]}, b"")
    return report


def _answer(header: dict[str, Any], payload: bytes,
            progress: Callable[[int, int, int], None] | None = None,
            ) -> tuple[dict[str, Any], bytes, bool]:
    try:
        return {"ok": True}, _run(header["op"], header.get("args", {}), payload,
                                  progress), False
    except PapermindError as err:
        return {"ok": False, "error": type(err).__name__, "message": err.message,
                "hint": err.hint}, b"", False
    except MemoryError:
        return {"ok": False, "error": "MemoryError"}, b"", True
    except Exception:
        return {"ok": False, "error": "crash", "trace": traceback.format_exc(limit=8)}, b"", False


def _run(op: str, args: dict[str, Any], payload: bytes,
         progress: Callable[[int, int, int], None] | None = None) -> bytes:
    if op == "parse":
        from papermind.config import IngestSettings
        from papermind.ingest.parse import parse_bytes

        settings = IngestSettings.model_validate(args["settings"])

        def on_page(done: int, total: int) -> None:
            if progress is not None:
                progress(done, total, settings.ocr_page_cpu_s)
        paper = parse_bytes(payload, args["name"], settings=settings, on_page=on_page)
        return paper.model_dump_json().encode()
    if op == "render":
        from papermind.ingest.page_image import render_page_png

        return render_page_png(Path(args["path"]), int(args["page"]), scale=float(args["scale"]),
                               rotation=int(args.get("rotation", 0)))
    if op == "words":
        from pydantic import TypeAdapter

        from papermind.domain import Page
        from papermind.domain.text_layer import PageWords
        from papermind.ingest.page_words import page_words

        pages = TypeAdapter(list[Page]).validate_json(payload)
        return TypeAdapter(list[PageWords]).dump_json(page_words(Path(args["path"]), pages))
    if op == "ping":
        return b"pong"
    raise ValueError(f"unknown request {op!r}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
