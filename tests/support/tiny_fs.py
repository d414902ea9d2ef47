"""A tiny tmpfs to run out of space on (root only; tests skip where mount is refused)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


@contextmanager
def tiny_tmpfs(folder: Path, size: str = "4m") -> Iterator[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(mount: Path, leave: int = 0) -> Path:
    """Take every free byte of the file system but about ``leave``."""
    filler = mount / "filler"
    with open(filler, "wb", buffering=0) as handle:
        for size in (65536, 4096, 512, 1):
            try:
                while True:
                    handle.write(b"\0" * size)
            except OSError:
                pass
    if leave:
        with open(filler, "r+b") as handle:
            handle.truncate(max(0, filler.stat().st_size - leave))
    return filler
