"""Decompression-bomb check: how large a PDF's streams become once decoded, bounded.

Before PDFium sees a file, every stream that FlateDecode reads (directly or after the ASCII
filters) is decoded here incrementally, counting bytes and keeping none, so a 2 MB
file whose stream inflates to 2 GiB is refused after reading at most the limit, at a few
MB of memory. Streams with other filters (images: DCT, JBIG2, JPX; LZW, RunLength) are not
decoded here; the render path bounds bitmap sizes separately.
"""

from __future__ import annotations

import base64
import binascii
import re
import zlib

from papermind.errors import IngestError

_STREAM = re.compile(rb"stream\r?\n")
_OBJ = re.compile(rb"\d+\s+\d+\s+obj\b")
_FILTERS = re.compile(rb"/Filter\s*(\[[^\]]*\]|/[A-Za-z0-9]+)")
_NAMES = re.compile(rb"/([A-Za-z0-9]+)")
_FLATE = {b"FlateDecode", b"Fl"}
_ASCII = {b"ASCIIHexDecode", b"AHx", b"ASCII85Decode", b"A85"}
STEP = 1 << 20


def check_stream_sizes(data: bytes, name: str, *, max_stream_mb: float,
                       max_total_mb: float) -> int:
    """Total decoded bytes of the Flate streams; IngestError past either limit."""
    per_stream, overall = int(max_stream_mb * 2**20), int(max_total_mb * 2**20)
    total = 0
    for start, end, filters in _flate_streams(data):
        raw = _ascii_decoded(data[start:end], filters)
        if raw is None:
            continue
        size = _inflated_size(raw, min(per_stream, overall - total) + 1)
        total += size
        if size > per_stream or total > overall:
            what = (f"a stream that decodes to more than {max_stream_mb:g} MiB"
                    if size > per_stream else f"streams that decode to more than "
                    f"{max_total_mb:g} MiB in all")
            raise IngestError(f"{name} has {what} (a decompression bomb?)",
                              hint="raise ingest.max_stream_mb / ingest.max_decoded_mb "
                                   "if the file is trusted")
    return total


def _flate_streams(data: bytes) -> list[tuple[int, int, list[bytes]]]:
    """(start, end, filters) of each stream that FlateDecode will read.

    A stream counts when its data starts with a zlib header, whatever its dictionary says
    (so a padded or odd dictionary cannot hide it), or when the dictionary just before it
    names ASCII filters ahead of FlateDecode.
    """
    found = []
    for match in _STREAM.finditer(data):
        start = match.end()
        end = data.find(b"endstream", start)
        end = end if end >= 0 else len(data)
        if _zlib_header(data[start:start + 2]):
            found.append((start, end, [b"FlateDecode"]))
            continue
        head = data[max(0, match.start() - 4096):match.start()]
        objects = list(_OBJ.finditer(head))
        filters = _filter_names(head[objects[-1].end():] if objects else head)
        if filters and filters[0] in _ASCII and any(f in _FLATE for f in filters):
            found.append((start, end, filters))
    return found


def _zlib_header(two: bytes) -> bool:
    return len(two) == 2 and two[0] & 0x0F == 8 and two[0] >> 4 <= 7 and (
        (two[0] << 8) | two[1]) % 31 == 0


def _filter_names(head: bytes) -> list[bytes]:
    specs = list(_FILTERS.finditer(head))
    return _NAMES.findall(specs[-1].group(1)) if specs else []


def _ascii_decoded(raw: bytes, filters: list[bytes]) -> bytes | None:
    """The bytes FlateDecode will see (after leading ASCII filters), or None if unknown."""
    for kind in filters:
        if kind in _FLATE:
            return raw
        if kind not in _ASCII:
            return None  # a filter we do not decode comes before Flate
        try:
            if kind in (b"ASCIIHexDecode", b"AHx"):
                digits = re.sub(rb"\s+", b"", raw.split(b">")[0])
                raw = binascii.unhexlify(digits + b"0" * (len(digits) % 2))
            else:
                raw = base64.a85decode(raw.strip().removeprefix(b"<~").split(b"~>")[0])
        except (ValueError, binascii.Error):
            return None
    return None


def _inflated_size(raw: bytes, stop_after: int) -> int:
    """Bytes ``raw`` inflates to, counting no further than ``stop_after``."""
    inflater = zlib.decompressobj()
    size = 0
    view = memoryview(raw)
    try:
        for offset in range(0, len(view), STEP):
            chunk = inflater.decompress(view[offset:offset + STEP], STEP)
            size += len(chunk)
            while inflater.unconsumed_tail and not inflater.eof and size < stop_after:
                chunk = inflater.decompress(inflater.unconsumed_tail, STEP)
                size += len(chunk)
            if size >= stop_after or inflater.eof:
                break
    except zlib.error:
        pass  # PDFium decodes what it can of a damaged stream; count what we could
    return size
