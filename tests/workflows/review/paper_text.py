"""The paperkit paper as a Markdown file, for service and CLI tests that ingest for real."""

from __future__ import annotations

from pathlib import Path

from tests.workflows.review.paperkit import SECTIONS


def write_paper(folder: Path) -> Path:
    parts = ["# Zebraformer: Sparse Routing for Long Legal Documents", ""]
    for number, title, _kind, blocks in SECTIONS:
        parts += [f"## {number + ' ' if number else ''}{title}", ""]
        for block in blocks:
            parts += [block if isinstance(block, str) else block[2], ""]
    path = folder / "zebraformer.md"
    path.write_text("\n".join(parts), encoding="utf-8")
    return path
