"""Decompression bombs through every filter chain, built by hand (small files, never stored).

``bomb_pdf(path, filters, data)`` writes a valid one-page PDF with a real text line in one
content stream and ``data`` (already encoded by ``filters``) as a second content stream;
``lzw_zeros(n)`` is the LZW encoding of ``n`` zero bytes (NUL is white space in a content
stream) computed from the run's structure, so 1 GiB costs a few hundred thousand codes.
"""

from __future__ import annotations

import zlib
from pathlib import Path

from tests.support.pdf_bytes import TEXT, one_page_pdf, stream


def lzw_encode(data: bytes) -> bytes:
    """The textbook LZW encoder (small inputs: a few KB)."""
    table = {bytes([i]): i for i in range(256)}
    codes, word = [256], b""
    for value in data:
        longer = word + bytes([value])
        if longer in table:
            word = longer
            continue
        codes.append(table[word])
        if len(table) + 2 < 4096:
            table[longer] = len(table) + 2
        word = bytes([value])
    if word:
        codes.append(table[word])
    return _emit(codes + [257])


def _emit(codes: list[int]) -> bytes:
    """Pack codes, tracking the decoder's table size (one entry per code after the first)."""
    out, bits, held, width, size, first = bytearray(), 0, 0, 9, 258, True
    for code in codes:
        bits, held = (bits << width) | code, held + width
        while held >= 8:
            held -= 8
            out.append((bits >> held) & 0xFF)
        bits &= (1 << held) - 1
        if code == 256:
            width, size, first = 9, 258, True
            continue
        if code == 257:
            break
        if not first and size < 4096:
            size += 1
        first = False
        if size + 1 >= 1 << width and width < 12:
            width += 1
    if held:
        out.append((bits << (8 - held)) & 0xFF)
    return bytes(out)


def lzw_zeros(n: int) -> bytes:
    """LZW of ``n`` zero bytes: runs of length 1, 2, 3, ... until the table is full, then the
    longest run over and over (the encoder's exact output, without looping over every byte)."""
    codes, length, left = [256], 1, n
    longest = 4096 - 258 + 1  # entry 4095 holds a run of this length
    while left > 0:
        run = min(length, left, longest)
        codes.append(0 if run == 1 else 256 + run)
        left -= run
        length = min(length + 1, longest)
    return _emit(codes + [257])


def double_flate_zeros(n_mb: int) -> bytes:
    """Flate of Flate of ``n_mb`` MiB of zeros (a few KB for a GiB)."""
    inner = zlib.compressobj(9)
    block = b"\0" * (1 << 20)
    packed = b"".join(inner.compress(block) for _ in range(n_mb)) + inner.flush()
    return zlib.compress(packed, 9)


def bomb_pdf(path: Path, filters: str, data: bytes, *, extra: bytes = b"") -> Path:
    """A valid one-page PDF: a text stream, then ``data`` (``/Filter filters``) as content."""
    return one_page_pdf(path, [stream(TEXT), stream(data, filters, extra)])
