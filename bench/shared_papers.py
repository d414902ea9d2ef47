"""The benchmarks' real papers: ../shared/data/pdfs ($PAPERMIND_SHARED_DATA, else a
``shared/data`` folder beside the repository or above a worktree), parsed one by one."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path

from papermind.domain import Paper
from papermind.ingest import parse_file

ROOT = Path(__file__).resolve().parents[1]


def pdfs_dir() -> Path | None:
    """The shared PDFs folder, or None where the shared data is absent."""
    if os.environ.get("PAPERMIND_SHARED_DATA"):
        return Path(os.environ["PAPERMIND_SHARED_DATA"]) / "pdfs"
    for base in ROOT.parents:
        if (base / "shared" / "data" / "pdfs").is_dir():
            return base / "shared" / "data" / "pdfs"
    return None


def parsed_pdfs(root: Path, folders: Sequence[str]) -> Iterator[tuple[Path, Paper]]:
    """Every PDF of ``folders`` under ``root`` with its Paper; a file that does not parse is
    reported and skipped (a bench goes on)."""
    for folder in folders:
        for pdf in sorted((root / folder).glob("*.pdf")):
            try:
                yield pdf, parse_file(pdf)
            except Exception as err:
                print(f"skip {pdf.name}: {err}")
