"""Decompression bombs: a small PDF whose stream inflates hugely is refused at low memory."""

from __future__ import annotations

import binascii
import os
import subprocess
import sys
import zlib
from pathlib import Path

import httpx
import pytest

from papermind.api.app import create_app
from papermind.config import IngestSettings, load_settings
from papermind.errors import IngestError
from papermind.ingest import parse_file
from papermind.ingest.pdf_streams import check_stream_sizes
from tests.api.hostile_files import bomb_pdf
from tests.api.server import serve

INFLATED_MB = 300
LIMIT_MB = 64


@pytest.fixture(scope="module")
def bomb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return bomb_pdf(tmp_path_factory.mktemp("bomb") / "bomb.pdf", INFLATED_MB)


def test_parse_refuses_a_bomb_with_bounded_memory(bomb: Path, home: Path) -> None:
    assert bomb.stat().st_size < 2 * 2**20
    env = {**os.environ, "PAPERMIND_INGEST__MAX_STREAM_MB": str(LIMIT_MB)}
    done = subprocess.run([sys.executable, "-m", "papermind", "parse", str(bomb)], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, (done.returncode, done.stdout[-500:], done.stderr)
    assert "decompression bomb" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_parse_refuses_a_bomb_under_a_memory_ceiling(bomb: Path, home: Path) -> None:
    """Same refusal with the child's address space capped at 1 GiB: it never needs more."""
    env = {**os.environ, "PAPERMIND_INGEST__MAX_STREAM_MB": str(LIMIT_MB)}
    code = ("import resource, runpy, sys; resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30));"
            f" sys.argv = ['papermind', 'parse', {str(bomb)!r}]; runpy.run_module('papermind',"
            " run_name='__main__')")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert "decompression bomb" in done.stderr


def test_upload_refuses_a_bomb_and_stores_nothing(bomb: Path, home: Path) -> None:
    settings = load_settings(home).model_copy(
        update={"ingest": IngestSettings(max_stream_mb=LIMIT_MB)})
    with serve(create_app(settings)) as base, httpx.Client(base_url=base, timeout=120) as client:
        refused = client.post("/api/papers", files={"file": ("bomb.pdf", bomb.read_bytes())})
        assert refused.status_code == 422, refused.text
        assert "decompression bomb" in refused.json()["detail"]
        assert client.get("/api/papers").json() == []


def test_the_limit_is_a_setting(bomb: Path) -> None:
    with pytest.raises(IngestError, match="more than 64 MiB"):
        parse_file(bomb, settings=IngestSettings(max_stream_mb=LIMIT_MB))


def _stream(filters: str, data: bytes) -> bytes:
    return (b"4 0 obj\n<< /Length %d /Filter %s >>\nstream\n" % (len(data), filters.encode())
            + data + b"\nendstream\nendobj\n")


def test_hex_encoded_flate_streams_and_the_total_are_counted() -> None:
    packed = zlib.compress(b"\0" * (3 * 2**20))
    hexed = _stream("[/ASCIIHexDecode /FlateDecode]", binascii.hexlify(packed) + b">")
    assert check_stream_sizes(hexed, "x.pdf", max_stream_mb=4, max_total_mb=8) == 3 * 2**20
    with pytest.raises(IngestError, match="more than 2 MiB"):
        check_stream_sizes(hexed, "x.pdf", max_stream_mb=2, max_total_mb=8)
    several = _stream("/FlateDecode", packed) * 3
    with pytest.raises(IngestError, match="8 MiB in all"):
        check_stream_sizes(several, "x.pdf", max_stream_mb=4, max_total_mb=8)
    plain = _stream("/FlateDecode", zlib.compress(b"BT (hello) Tj ET"))
    assert check_stream_sizes(plain, "x.pdf", max_stream_mb=1, max_total_mb=1) == 16


@pytest.mark.parametrize("keyword", [b"stream \n", b"stream\t\r\n", b"stream\r", b"stream   \r\n"])
def test_a_tolerant_stream_keyword_is_still_decoded(keyword: bytes) -> None:
    packed = zlib.compress(b"\0" * (3 * 2**20))
    spaced = (b"4 0 obj\n<< /Length %d /Filter /FlateDecode >>\n" % len(packed) + keyword
              + packed + b"\nendstream\nendobj\n")
    with pytest.raises(IngestError, match="decompression bomb"):
        check_stream_sizes(spaced, "x.pdf", max_stream_mb=2, max_total_mb=8)
