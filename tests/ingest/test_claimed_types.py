"""Files that are not what they claim: a `.pdf` that is not a PDF, a document without text."""

from __future__ import annotations

from io import BytesIO
from pathlib import Path

import httpx
import pytest
from reportlab.lib.pagesizes import LETTER
from reportlab.pdfgen import canvas

from papermind.api.app import create_app
from papermind.config import load_settings
from papermind.errors import IngestError
from papermind.ingest import parse_bytes
from tests.api.server import serve


def _furniture_only_pdf() -> bytes:
    """Two pages with a running head and a page number, and nothing else."""
    buffer = BytesIO()
    doc = canvas.Canvas(buffer, pagesize=LETTER)
    for number in (1, 2):
        doc.drawString(72, 750, "Journal of Tests, vol. 1")
        doc.drawString(300, 40, str(number))
        doc.showPage()
    doc.save()
    return buffer.getvalue()


@pytest.mark.parametrize("content", [b"just some notes\nin a text file\n",
                                     b"import os\nprint(os.getcwd())\n"])
def test_a_pdf_name_on_other_content_is_refused(content: bytes) -> None:
    with pytest.raises(IngestError, match="is not a PDF"):
        parse_bytes(content, "x.pdf")
    assert parse_bytes(content, "x.txt").source_type == "txt"


def test_a_pdf_without_usable_text_is_refused_with_the_reason() -> None:
    with pytest.raises(IngestError, match="no usable text"):
        parse_bytes(_furniture_only_pdf(), "furniture.pdf")
    with pytest.raises(IngestError, match="no usable text"):
        parse_bytes(b"1\n\n2 . . 3\n", "numbers.txt")


def test_uploads_are_refused_the_same_way(home: Path) -> None:
    with serve(create_app(load_settings(home))) as base, httpx.Client(base_url=base) as client:
        fake = client.post("/api/papers", files={"file": ("fake.pdf", b"print('hi')\n")})
        assert fake.status_code == 422 and "not a PDF" in fake.json()["detail"]
        empty = client.post("/api/papers", files={"file": ("f.pdf", _furniture_only_pdf())})
        assert empty.status_code == 422 and "no usable text" in empty.json()["detail"]
        assert client.get("/api/papers").json() == []
