"""Streaming PDF stream decoders for the bomb check: each one reads chunks and yields chunks.

They exist to *count* what a filter chain decodes to, never to keep it: the caller chains
them (``decode_chain``), sums the lengths of what comes out and stops pulling once past its
limit, so a chain that decodes to gigabytes is read only up to the limit, a chunk at a time.
Damaged data ends the stream quietly (PDFium decodes what it can; so do we).
"""

from __future__ import annotations

import base64
import re
import zlib
from collections.abc import Callable, Iterable, Iterator

STEP = 1 << 20
"""Largest chunk any decoder yields (and inflates at once)."""

Chunks = Iterable[bytes]
Decoder = Callable[[Chunks], Iterator[bytes]]


def flate(chunks: Chunks) -> Iterator[bytes]:
    inflater = zlib.decompressobj()
    try:
        for chunk in chunks:
            while chunk and not inflater.eof:
                yield inflater.decompress(chunk, STEP)
                chunk = inflater.unconsumed_tail
            if inflater.eof:
                return
    except zlib.error:
        return


def lzw(chunks: Chunks, early_change: int = 1) -> Iterator[bytes]:
    """LZWDecode (9 to 12 bit codes, clear 256, end 257, ``EarlyChange`` as in the spec)."""
    table = _lzw_start()
    width, bits, held, prev = 9, 0, 0, b""
    out = bytearray()
    for chunk in chunks:
        for byte in chunk:
            bits, held = (bits << 8) | byte, held + 8
            while held >= width:
                held -= width
                code, bits = bits >> held, bits & ((1 << held) - 1)
                if code == 256:
                    table, width, prev = _lzw_start(), 9, b""
                    continue
                if code == 257:
                    yield bytes(out)
                    return
                if code < len(table):
                    entry = table[code]
                elif code == len(table) and prev:
                    entry = prev + prev[:1]
                else:
                    yield bytes(out)  # damaged
                    return
                out += entry
                if prev and len(table) < 4096:
                    table.append(prev + entry[:1])
                prev = entry
                if len(table) + early_change >= 1 << width and width < 12:
                    width += 1
                if len(out) >= STEP:
                    yield bytes(out)
                    out.clear()
    yield bytes(out)


def _lzw_start() -> list[bytes]:
    return [bytes([i]) for i in range(256)] + [b"", b""]


def run_length(chunks: Chunks) -> Iterator[bytes]:
    """RunLengthDecode: a length byte, then literal bytes or one byte to repeat."""
    pending = b""
    for chunk in chunks:
        data, at, out = pending + chunk, 0, bytearray()
        while at < len(data):
            length = data[at]
            if length == 128:
                yield bytes(out)
                return
            need = length + 2 if length < 128 else 2
            if at + need > len(data):
                break
            out += data[at + 1:at + need] if length < 128 else data[at + 1:at + 2] * (257 - length)
            at += need
            if len(out) >= STEP:
                yield bytes(out)
                out.clear()
        pending = data[at:]
        yield bytes(out)


def ascii_hex(chunks: Chunks) -> Iterator[bytes]:
    odd = b""
    for chunk in chunks:
        end = chunk.find(b">")
        digits = odd + bytes(b for b in (chunk if end < 0 else chunk[:end])
                             if b in _HEX)
        odd = digits[len(digits) // 2 * 2:]
        yield bytes.fromhex(digits[:len(digits) // 2 * 2].decode())
        if end >= 0:
            yield bytes.fromhex((odd + b"0").decode()) if odd else b""
            return


_HEX = frozenset(b"0123456789abcdefABCDEF")


def ascii85(chunks: Chunks) -> Iterator[bytes]:
    pending = b""
    for chunk in chunks:
        end = bytes(chunk).find(b"~")
        body = pending + _A85_NOISE.sub(b"", bytes(chunk if end < 0 else chunk[:end]))
        body = body.replace(b"z", b"!!!!!")  # 'z' is four zero bytes
        whole = len(body) // 5 * 5
        yield _a85(body[:whole])
        pending = body[whole:]
        if end >= 0:
            break
    if len(pending) > 1:
        yield _a85(pending + b"u" * (5 - len(pending)))[:len(pending) - 1]


_A85_NOISE = re.compile(rb"[^!-uz]")


def _a85(groups: bytes) -> bytes:
    try:
        return base64.a85decode(groups)
    except ValueError:  # a group past 2^32: damaged, as PDFium would stop
        return b""


DECODERS: dict[bytes, Decoder] = {
    b"FlateDecode": flate, b"Fl": flate, b"LZWDecode": lzw, b"LZW": lzw,
    b"RunLengthDecode": run_length, b"RL": run_length,
    b"ASCIIHexDecode": ascii_hex, b"AHx": ascii_hex, b"ASCII85Decode": ascii85, b"A85": ascii85,
}
"""The filters whose output the bomb check counts (images' DCT, JPX, JBIG2, CCITT are not)."""


def decode_chain(raw: bytes, filters: list[bytes], *, early_change: int = 1
                 ) -> Iterator[bytes] | None:
    """Chunks of ``raw`` decoded by ``filters`` in order, lazily; None when the chain holds a
    filter not decoded here (its output is left to the process limits)."""
    if not filters or any(name not in DECODERS for name in filters):
        return None
    view = memoryview(raw)
    stream: Iterator[bytes] = (bytes(view[at:at + STEP]) for at in range(0, len(view), STEP))
    for name in filters:
        decoder = DECODERS[name]
        stream = lzw(stream, early_change) if decoder is lzw else decoder(stream)
    return stream


def decoded_size(chunks: Iterator[bytes], stop_after: int) -> int:
    """Bytes the chunks add up to, pulling no further than ``stop_after``."""
    size = 0
    for chunk in chunks:
        size += len(chunk)
        if size >= stop_after:
            break
    return size
