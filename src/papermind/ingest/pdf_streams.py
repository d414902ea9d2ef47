"""Decompression-bomb check: how large a PDF's streams become once decoded, bounded.

Before PDFium sees a file, every stream is decoded here by its whole filter chain (Flate,
LZW, RunLength, ASCIIHex, ASCII85, nested in any order; ``pdf_filters``), a chunk at a time,
counting bytes and keeping none, so a 2 KB file whose stream decodes to 1 GiB is refused
after reading at most the limit, at a few MB of memory. A ``/Filter`` given by reference is
looked up, in the file or inside its object streams; data that starts with a zlib header
counts as Flate when its dictionary names no chain decoded here. Streams of a file encrypted
with an empty user password (it opens without asking, so PDFium inflates them) are decrypted
first (``pdf_crypt``). Image codecs (DCT, JPX, JBIG2, CCITT) and files that need a password
are not decoded here: the parse runs in a worker process under memory,
CPU and time limits (``ingest.sandbox``), and that is the guarantee; this check only turns
the common bombs into a clear message early.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from papermind.errors import IngestError
from papermind.ingest.pdf_crypt import stream_decrypter
from papermind.ingest.pdf_filters import decode_chain, decoded_size

_STREAM = re.compile(rb"(?<!end)stream[ \t\f\x00]{0,64}(?:\r\n|\r|\n)")
"""The ``stream`` keyword as PDFium reads it: spaces or tabs may follow it before the end of
line, which may be CR LF, LF or a lone CR."""
_OBJ = re.compile(rb"(\d+)\s+(\d+)\s+obj\b")
_FILTER = re.compile(rb"/Filter\s*(\[[^\]]*\]|/[A-Za-z0-9]+|\d+\s+\d+\s+R)")
_LENGTH = re.compile(rb"/Length\s+(\d+)(?!\s+\d+\s+R)")
_REF = re.compile(rb"(\d+)\s+\d+\s+R")
_NAMES = re.compile(rb"/([A-Za-z0-9]+)")
_EARLY = re.compile(rb"/EarlyChange\s+0")
_FLATE = [b"FlateDecode"]


def check_stream_sizes(data: bytes, name: str, *, max_stream_mb: float,
                       max_total_mb: float) -> int:
    """Total decoded bytes of the file's streams; IngestError past either limit."""
    per_stream, overall = int(max_stream_mb * 2**20), int(max_total_mb * 2**20)
    total = 0
    for chunks in _decoded_streams(data, per_stream):
        size = decoded_size(chunks, min(per_stream, overall - total) + 1)
        total += size
        if size > per_stream or total > overall:
            what = (f"a stream that decodes to more than {max_stream_mb:g} MiB"
                    if size > per_stream else f"streams that decode to more than "
                    f"{max_total_mb:g} MiB in all")
            raise IngestError(f"{name} has {what} (a decompression bomb?)",
                              hint="raise ingest.max_stream_mb / ingest.max_decoded_mb "
                                   "if the file is trusted")
    return total


def _decoded_streams(data: bytes, per_stream: int) -> Iterator[Iterator[bytes]]:
    """The decoded chunks of each stream whose filter chain is decoded here, lazily
    (decrypted first when the file opens without a password: ``pdf_crypt``)."""
    objects = _ObjectLookup(data, per_stream)
    decrypt = stream_decrypter(data)
    for start, end, head, ref in _streams(data):
        raw = data[start:end]
        if decrypt is not None and ref is not None and b"/XRef" not in head:
            raw = decrypt(ref[0], ref[1], raw)
        early = 0 if _EARLY.search(head) else 1
        chunks = decode_chain(raw, _filters(head, objects), early_change=early)
        if chunks is None and _zlib_header(raw[:2]):  # an odd dictionary
            chunks = decode_chain(raw, _FLATE)
        if chunks is not None:
            yield chunks


def _streams(data: bytes) -> Iterator[tuple[int, int, bytes, tuple[int, int] | None]]:
    """(start, end, dictionary text, object number and generation) of each stream, its end
    found the way PDFium does: at ``/Length`` when ``endstream`` follows there, else at the
    next ``endstream``."""
    for match in _STREAM.finditer(data):
        start = match.end()
        head = data[max(0, match.start() - 4096):match.start()]
        objects = list(_OBJ.finditer(head))
        ref = (int(objects[-1].group(1)), int(objects[-1].group(2))) if objects else None
        head = head[objects[-1].end():] if objects else head
        length = _LENGTH.search(head)
        end = start + int(length.group(1)) if length else -1
        if not length or not data[end:end + 32].lstrip().startswith(b"endstream"):
            end = data.find(b"endstream", start)
            end = end if end >= 0 else len(data)
        yield start, end, head, ref


def _filters(head: bytes, objects: _ObjectLookup) -> list[bytes]:
    specs = list(_FILTER.finditer(head))
    if not specs:
        return []
    value = specs[-1].group(1)
    ref = _REF.fullmatch(value)
    if ref:
        value = objects.body(int(ref.group(1)))
    return _NAMES.findall(value)


def _zlib_header(two: bytes) -> bool:
    return len(two) == 2 and two[0] & 0x0F == 8 and two[0] >> 4 <= 7 and (
        (two[0] << 8) | two[1]) % 31 == 0


class _ObjectLookup:
    """The text of an object by number: in the file, else inside an object stream
    (decoded, up to the per-stream limit, only when a reference needs it)."""

    def __init__(self, data: bytes, per_stream: int) -> None:
        self.data = data
        self.per_stream = per_stream
        self._packed: dict[int, bytes] | None = None

    def body(self, number: int) -> bytes:
        found = re.search(rb"(?<!\d)%d\s+\d+\s+obj\b(.{0,512}?)endobj" % number, self.data,
                          re.DOTALL)
        if found:
            return found.group(1)
        if self._packed is None:
            self._packed = self._unpack()
        return self._packed.get(number, b"")

    def _unpack(self) -> dict[int, bytes]:
        packed: dict[int, bytes] = {}
        for start, end, head, _ in _streams(self.data):
            if b"/ObjStm" not in head:
                continue
            spec = _FILTER.search(head)
            chunks = decode_chain(self.data[start:end],
                                  _NAMES.findall(spec.group(1)) if spec else [])
            if chunks is None:
                continue
            text = b"".join(_taken(chunks, self.per_stream))
            packed.update(_objects_in(text, head))
        return packed


def _taken(chunks: Iterator[bytes], limit: int) -> Iterator[bytes]:
    size = 0
    for chunk in chunks:
        yield chunk
        size += len(chunk)
        if size >= limit:
            return


def _objects_in(text: bytes, head: bytes) -> dict[int, bytes]:
    """Objects of a decoded object stream: ``/N`` pairs of number and offset, then bodies."""
    first = re.search(rb"/First\s+(\d+)", head)
    count = re.search(rb"/N\s+(\d+)", head)
    if not first or not count:
        return {}
    numbers = [int(n) for n in text[:int(first.group(1))].split()][:2 * int(count.group(1))]
    pairs = list(zip(numbers[::2], numbers[1::2], strict=False))
    out = {}
    for index, (number, offset) in enumerate(pairs):
        start = int(first.group(1)) + offset
        end = int(first.group(1)) + pairs[index + 1][1] if index + 1 < len(pairs) else len(text)
        out[number] = text[start:end][:512]
    return out
