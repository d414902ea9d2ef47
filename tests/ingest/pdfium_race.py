"""Run as a script: many threads render pages of one PDF while others parse it.

``python -m tests.ingest.pdfium_race FILE THREADS`` exits 0 and prints ``ok`` when every
render and parse succeeded; without one PDFium lock per process it segfaults (exit -11).
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

from papermind.ingest import parse_bytes
from papermind.ingest.page_image import render_page_png


def main(path: Path, threads: int) -> int:
    errors: list[str] = []

    def render(index: int) -> None:
        try:
            for number in range(1, 9):
                render_page_png(path, number, scale=1.0 + 0.01 * index)
        except Exception as err:
            errors.append(repr(err))

    def parse() -> None:
        try:
            parse_bytes(path.read_bytes(), path.name)
        except Exception as err:
            errors.append(repr(err))

    workers = [threading.Thread(target=render, args=(i,)) for i in range(threads)]
    workers += [threading.Thread(target=parse) for _ in range(3)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    print("ok" if not errors else f"{len(errors)} errors: {errors[:3]}")
    return 0 if not errors else 1


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), int(sys.argv[2])))
