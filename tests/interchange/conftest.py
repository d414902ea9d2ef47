"""A container on a fresh home (hashing embedder: the real index path, no model load)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from papermind.services.container import Container
from tests.support.containers import hashing_container

PDF_NAMES = ["P07-1088", "P14-1059", "a7c25298c607d5bf32e3301b6b209431e2a7f830", "agarwal11",
             "bohnet09", "bunescu-acl07", "ding11", "mono04", "mooney05", "roark13", "smola10",
             "proto06", "fader11", "c921a74c209e720534939dfa191d639e647dd242", "smith07"]


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
