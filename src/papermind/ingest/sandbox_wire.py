"""How the parsing worker and its parent talk: a JSON header and a byte payload per message,
each preceded by its length (8 bytes, big-endian)."""

from __future__ import annotations

import json
from typing import IO, Any

_HEADER_LIMIT = 1 << 20


def write_message(stream: IO[bytes], header: dict[str, Any], payload: bytes = b"") -> None:
    head = json.dumps(header).encode()
    stream.write(len(head).to_bytes(8, "big") + len(payload).to_bytes(8, "big"))
    stream.write(head)
    stream.write(payload)
    stream.flush()


def read_message(stream: IO[bytes], max_payload: int | None = None
                 ) -> tuple[dict[str, Any], bytes] | None:
    """The next message, or None at the end of the stream (or a cut-off one, or one whose
    payload is over ``max_payload`` bytes)."""
    sizes = _read_exactly(stream, 16)
    if sizes is None:
        return None
    head_size, payload_size = int.from_bytes(sizes[:8], "big"), int.from_bytes(sizes[8:], "big")
    if head_size > _HEADER_LIMIT or (max_payload is not None and payload_size > max_payload):
        return None
    head = _read_exactly(stream, head_size)
    payload = _read_exactly(stream, payload_size)
    if head is None or payload is None:
        return None
    header = json.loads(head)
    return (header, payload) if isinstance(header, dict) else None


def _read_exactly(stream: IO[bytes], size: int) -> bytes | None:
    parts, left = [], size
    while left:
        part = stream.read(left)
        if not part:
            return None
        parts.append(part)
        left -= len(part)
    return b"".join(parts)
