"""The bomb pre-check decrypts the streams of a PDF that opens without a password, so an
encrypted Flate bomb is refused early, at low memory, like a plain one."""

from __future__ import annotations

import zlib
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from papermind.errors import IngestError
from papermind.ingest.pdf_crypt import stream_decrypter
from papermind.ingest.pdf_streams import check_stream_sizes
from tests.ingest.encrypted_files import encrypted_pdf
from tests.support.pdf_bytes import TEXT

KINDS = ["rc4", "aes128", "aes256"]


@pytest.mark.parametrize("kind", KINDS)
def test_an_encrypted_flate_bomb_is_refused(tmp_path: Path, kind: str) -> None:
    bomb = zlib.compress(b"\0" * (64 * 2**20), 9)
    pdf = encrypted_pdf(tmp_path / "b.pdf", [(TEXT, ""), (bomb, "/FlateDecode")], kind)
    data = pdf.read_bytes()
    with pytest.raises(IngestError, match="decompression bomb"):
        check_stream_sizes(data, "b.pdf", max_stream_mb=16, max_total_mb=32)


@pytest.mark.parametrize("kind", KINDS)
def test_an_encrypted_paper_opens_and_counts_its_real_size(tmp_path: Path, kind: str) -> None:
    body = zlib.compress(TEXT * 100)
    pdf = encrypted_pdf(tmp_path / "p.pdf", [(body, "/FlateDecode")], kind)
    data = pdf.read_bytes()
    assert stream_decrypter(data) is not None
    assert check_stream_sizes(data, "p.pdf", max_stream_mb=1, max_total_mb=1) == len(TEXT) * 100
    if kind != "aes256":  # the AES-256 file's owner entries are random: PDFium checks them
        doc = pdfium.PdfDocument(data)
        assert "Decompression bombs" in doc[0].get_textpage().get_text_range()


def test_a_plain_pdf_needs_no_decrypter() -> None:
    assert stream_decrypter(b"%PDF-1.4\n1 0 obj << >> endobj\ntrailer << /Root 1 0 R >>") is None
