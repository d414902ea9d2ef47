"""A scanned PDF through the interfaces: `add` stores it, `show` and the web say which pages
were read by OCR, and the reader's page image and text layer of a sideways scan are upright."""

from __future__ import annotations

import io
from pathlib import Path

import httpx
import pytest
from PIL import Image

from papermind.api.app import create_app
from papermind.config import SearchSettings, load_settings
from papermind.ingest import ocr_engine
from tests.api.server import serve
from tests.ingest.scan_pdf import scanned_pdf, two_column_paper_pdf
from tests.support.cli import CliRunner

pytestmark = pytest.mark.skipif(not ocr_engine.available(),
                                reason="the 'ocr' extra (rapidocr) is not installed")


def test_scan_is_added_shown_and_read_upright(cli: CliRunner, home: Path, tmp_path: Path) -> None:
    source = two_column_paper_pdf(tmp_path / "paper.pdf", references=False)
    scan = scanned_pdf(source, tmp_path / "scan.pdf", sideways={1: 90})
    added = cli("add", scan, "--json")
    assert added.code == 0, added.err
    paper_id = added.json()[0]["paper_id"]
    shown = cli("show", paper_id)
    assert "pages 1 read by OCR (mean line confidence" in shown.out
    data = cli("show", paper_id, "--json").json()
    assert data["ocr_pages"] == [1] and data["pages"][0]["rotation"] == 270
    assert all(line["confidence"] for line in data["pages"][0]["lines"])

    settings = load_settings(home).model_copy(update={"search": SearchSettings(embedder="hashing")})
    with serve(create_app(settings)) as base, httpx.Client(base_url=base, timeout=60) as client:
        assert "Pages read by OCR (from the page images): 1" in client.get(f"/papers/{paper_id}").text
        reader = client.get(f"/papers/{paper_id}/pages/1").text
        assert 'class="ocr-badge"' in reader and ">Introduction </span>" in reader
        png = client.get(f"/api/papers/{paper_id}/pages/1.png", params={"scale": 1}).content
        assert Image.open(io.BytesIO(png)).size == (612, 792)  # upright, as the boxes are
