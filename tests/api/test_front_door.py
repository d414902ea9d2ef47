"""The front door: Host checks, same-origin for state changes, body limits and timeouts,
security headers, the login token, and values that used to give HTTP 500."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from papermind.api.app import create_app
from papermind.config import ApiSettings, load_settings
from tests.api.server import serve
from tests.support.reading_script import PAPER_MD


def _settings(home: Path, **api: Any) -> Any:
    return load_settings(home).model_copy(update={"api": ApiSettings(**api)})


@pytest.fixture
def server(home: Path) -> Iterator[tuple[str, httpx.Client]]:
    with serve(create_app(_settings(home, body_timeout_s=1.0))) as base, \
            httpx.Client(base_url=base, timeout=30) as client:
        yield base, client


def _paper(client: httpx.Client) -> str:
    done = client.post("/api/papers", files={"file": ("p.md", PAPER_MD.encode())})
    assert done.status_code == 201, done.text
    return str(done.json()["id"])


def test_a_foreign_host_header_is_refused(server: tuple[str, httpx.Client]) -> None:
    base, client = server
    refused = client.get("/api/papers", headers={"Host": "evil.example"})
    assert refused.status_code == 400 and "evil.example" in refused.json()["detail"]
    assert refused.headers["content-type"].startswith("application/problem+json")
    assert refused.headers["x-frame-options"] == "DENY"
    port = base.rsplit(":", 1)[1]
    for host in (f"127.0.0.1:{port}", f"localhost:{port}"):
        assert client.get("/api/papers", headers={"Host": host}).status_code == 200


def test_cross_site_form_posts_are_refused(server: tuple[str, httpx.Client]) -> None:
    base, client = server
    paper_id = _paper(client)
    form = {"kind": "reading", "paper_id": paper_id}
    for headers in ({"Origin": "http://evil.example"}, {"Origin": "null"},
                    {"Referer": "http://evil.example/page"}, {"Sec-Fetch-Site": "cross-site"}):
        refused = client.post("/ui/jobs", data=form, headers=headers)
        assert refused.status_code == 403, headers
        assert client.delete(f"/api/papers/{paper_id}", headers=headers).status_code == 403
    assert client.get("/api/jobs").json() == []  # no job was started
    same = client.post("/ui/jobs", data={"kind": "question", "question": "What is routed?"},
                       headers={"Origin": base})
    assert same.status_code == 303


def test_security_headers_on_every_response(server: tuple[str, httpx.Client]) -> None:
    _, client = server
    for path in ("/", "/api/papers", "/login", "/api/papers/nope"):
        headers = client.get(path).headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert headers["x-frame-options"] == "DENY"
        assert headers["x-content-type-options"] == "nosniff"
    docs = client.get("/docs")
    assert docs.status_code == 200 and "frame-ancestors 'none'" in docs.headers[
        "content-security-policy"]  # the API docs' CDN script still loads


def test_login_checks_the_token(home: Path) -> None:
    with serve(create_app(_settings(home, token="s3cret"))) as base, \
            httpx.Client(base_url=base, timeout=30) as client:
        wrong = client.post("/login", data={"token": "guess"})
        assert wrong.status_code == 401 and "papermind_token" not in wrong.headers.get(
            "set-cookie", "")
        right = client.post("/login", data={"token": "s3cret"})
        assert right.status_code == 303 and "papermind_token=s3cret" in right.headers["set-cookie"]


def test_a_10_mib_json_body_gets_413(server: tuple[str, httpx.Client]) -> None:
    _, client = server
    body = json.dumps({"kind": "question", "question": "x" * (10 * 2**20)})
    refused = client.post("/api/jobs", content=body, headers={"Content-Type": "application/json"})
    assert refused.status_code == 413
    assert refused.headers["content-type"].startswith("application/problem+json")

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted while it arrives
        yield b'{"kind": "question", "question": "'
        for _ in range(40):
            yield b"y" * 65536
        yield b'"}'

    streamed = client.post("/api/jobs", content=chunks(),
                           headers={"Content-Type": "application/json"})
    assert streamed.status_code == 413
    assert client.get("/api/jobs").json() == []


def test_lone_surrogates_and_huge_numbers_are_422(server: tuple[str, httpx.Client]) -> None:
    _, client = server
    body = '{"kind": "question", "question": "why \\ud800?"}'
    refused = client.post("/api/jobs", content=body, headers={"Content-Type": "application/json"})
    assert refused.status_code == 422, refused.text
    submitted = client.post("/api/jobs", json={"kind": "question", "question": "why?"})
    job_id = submitted.json()["id"]
    assert client.get(f"/api/jobs/{job_id}/events?after={'9' * 25}").status_code == 422
    assert client.get(f"/api/jobs/{job_id}/events?after=3").status_code == 200


def test_a_body_that_trickles_in_times_out(server: tuple[str, httpx.Client]) -> None:
    base, _ = server
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(f"POST /api/jobs HTTP/1.1\r\nHost: {host}:{port}\r\n"
                     "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{".encode())
        started = time.monotonic()
        answer = sock.recv(4096).decode()
    assert answer.startswith("HTTP/1.1 408"), answer
    assert time.monotonic() - started < 8
