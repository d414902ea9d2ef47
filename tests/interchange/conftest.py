"""A container on a fresh home (hashing embedder: the real index path, no model load)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from papermind.services.container import Container
from tests.support.containers import hashing_container
from tests.support.shared_data import PDF_NAMES


@pytest.fixture
def box(tmp_path: Path) -> Iterator[Container]:
    with hashing_container(tmp_path / "home") as container:
        yield container


@pytest.fixture
def real_pdfs(shared_data: Path) -> list[Path]:
    """15 real papers (science_parse set), or skip where the shared data is absent."""
    paths = [shared_data / "pdfs" / "science_parse" / f"{name}.pdf" for name in PDF_NAMES]
    missing = [p.name for p in paths if not p.is_file()]
    if missing:
        pytest.skip(f"shared PDFs missing: {missing}")
    return paths
