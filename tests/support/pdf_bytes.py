"""Small PDFs written byte by byte, for the hostile-input tests (bombs, filter chains).

``one_page_pdf(path, streams)`` writes a valid one-page PDF (Helvetica as ``/F1``) whose
content is ``streams`` in order; ``stream(data, filters)`` is one stream object. ``TEXT`` is a
real text line to put in one of them.
"""

from __future__ import annotations

from pathlib import Path

TEXT = (b"BT /F1 12 Tf 72 720 Td (Decompression bombs hide in small files.) Tj "
        b"0 -16 Td (This page has a real text layer and a huge content stream.) Tj ET\n")


def stream(data: bytes, filters: str = "", extra: bytes = b"") -> bytes:
    """A stream object: ``data`` as it is (already encoded by ``filters``, if any)."""
    head = b"<< /Length %d /Filter %s %s>>" % (len(data), filters.encode(), extra) \
        if filters else b"<< /Length %d >>" % len(data)
    return head + b"\nstream\n" + data + b"\nendstream"


def one_page_pdf(path: Path, streams: list[bytes]) -> Path:
    """Objects 1-3: catalog, pages, page; 4: the first stream; 5: the font; 6...: the rest."""
    numbers = [4, *range(6, 5 + len(streams))]
    contents = b"%d 0 R" % numbers[0] if len(numbers) == 1 else \
        b"[" + b" ".join(b"%d 0 R" % n for n in numbers) + b"]"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %s "
        b"/Resources << /Font << /F1 5 0 R >> >> >>" % contents,
        streams[0],
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        *streams[1:],
    ]
    path.write_bytes(pdf_file(objects))
    return path


def pdf_file(objects: list[bytes], *, version: bytes = b"1.4", trailer: bytes = b"") -> bytes:
    """A PDF of ``objects`` (numbered from 1, the first the catalog) with its xref table;
    ``trailer``: more trailer entries (e.g. ``/Encrypt 6 0 R``)."""
    out = bytearray(b"%PDF-" + version + b"\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R%s >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, trailer, xref)
    return bytes(out)
