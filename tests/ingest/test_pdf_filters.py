"""The bomb check decodes every filter chain, bounded: LZW, RunLength, ASCII85/Hex, nested
filters, a /Filter given by reference (also inside an object stream)."""

from __future__ import annotations

import base64
import binascii
import zlib
from pathlib import Path

import pytest

from papermind.config import IngestSettings
from papermind.errors import IngestError
from papermind.ingest.parse import parse_file
from papermind.ingest.pdf_filters import decode_chain, decoded_size
from papermind.ingest.pdf_streams import check_stream_sizes
from tests.ingest.bomb_files import bomb_pdf, lzw_encode, lzw_zeros

MIB = 2**20


def _check(data: bytes, limit_mb: float = 4) -> int:
    return check_stream_sizes(data, "x.pdf", max_stream_mb=limit_mb, max_total_mb=64)


def _stream(head: bytes, data: bytes) -> bytes:
    return b"6 0 obj\n<< /Length %d %s >>\nstream\n" % (len(data), head) + data + \
        b"\nendstream\nendobj\n"


def test_lzw_decodes_as_pdfium_does(tmp_path: Path) -> None:
    text = b"BT /F1 12 Tf 72 600 Td (Words behind an LZW filter are read.) Tj ET\n" * 40
    pdf = bomb_pdf(tmp_path / "lzw.pdf", "/LZWDecode", lzw_encode(text))
    assert "Words behind an LZW filter are read." in parse_file(pdf).pages[0].lines[-1].text
    assert b"".join(decode_chain(lzw_encode(text), [b"LZWDecode"]) or []) == text
    assert b"".join(decode_chain(lzw_zeros(100_000), [b"LZW"]) or []) == bytes(100_000)


@pytest.mark.parametrize(("filters", "encoded"), [
    (b"/LZWDecode", lzw_zeros(8 * MIB)),
    (b"/RunLengthDecode", bytes([129, 0]) * (8 * MIB // 128) + b"\x80"),
    (b"[/ASCIIHexDecode /LZWDecode]", binascii.hexlify(lzw_zeros(8 * MIB)) + b">"),
    (b"[/A85 /Fl /Fl]", base64.a85encode(zlib.compress(zlib.compress(bytes(8 * MIB)))) + b"~>"),
    (b"[/FlateDecode /RunLengthDecode]",
     zlib.compress(bytes([129, 0]) * (8 * MIB // 128))),
])
def test_every_chain_is_counted_and_refused_past_the_limit(filters: bytes,
                                                           encoded: bytes) -> None:
    data = _stream(b"/Filter " + filters, encoded)
    assert _check(data, limit_mb=16) == 8 * MIB
    with pytest.raises(IngestError, match="more than 4 MiB"):
        _check(data)


def test_a_filter_by_reference_is_looked_up_in_the_file_and_in_object_streams() -> None:
    bomb = lzw_zeros(8 * MIB)
    direct = b"9 0 obj\n[/LZWDecode]\nendobj\n" + _stream(b"/Filter 9 0 R", bomb)
    with pytest.raises(IngestError, match="more than 4 MiB"):
        _check(direct)
    objects = b"9 0 " + b"[/LZWDecode]"
    packed = zlib.compress(objects)
    objstm = (b"12 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Length %d /Filter /FlateDecode >>"
              b"\nstream\n" % len(packed) + packed + b"\nendstream\nendobj\n")
    with pytest.raises(IngestError, match="more than 4 MiB"):
        _check(objstm + _stream(b"/Filter 9 0 R", bomb))


def test_an_early_endstream_inside_the_data_does_not_hide_the_rest() -> None:
    """PDFium reads /Length bytes when 'endstream' follows there, so the check does too."""
    plain = b"endstream" + bytes(8 * MIB)
    stored = b"\x00" + (9).to_bytes(2, "little") + (0xFFFF ^ 9).to_bytes(2, "little")
    deflater = zlib.compressobj(9, zlib.DEFLATED, -15)
    hidden = (b"\x78\x01" + stored + b"endstream" + deflater.compress(bytes(8 * MIB))
              + deflater.flush() + zlib.adler32(plain).to_bytes(4, "big"))
    assert zlib.decompress(hidden) == plain  # valid zlib data with 'endstream' inside
    data = b"6 0 obj\n<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(hidden) + hidden \
        + b"\nendstream\nendobj\n"
    with pytest.raises(IngestError, match="more than 4 MiB"):
        _check(data)


def test_decoding_stops_at_the_limit() -> None:
    chunks = decode_chain(lzw_zeros(2**30), [b"LZWDecode"])
    assert chunks is not None
    assert decoded_size(chunks, 3 * MIB) < 5 * MIB


def test_the_limit_holds_through_the_public_parse(tmp_path: Path) -> None:
    pdf = bomb_pdf(tmp_path / "rl.pdf", "/RL", bytes([129, 0]) * (8 * MIB // 128) + b"\x80")
    with pytest.raises(IngestError, match="more than 4 MiB"):
        parse_file(pdf, settings=IngestSettings(max_stream_mb=4))
