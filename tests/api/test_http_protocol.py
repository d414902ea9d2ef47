"""`papermind serve`'s HTTP protocol closes connections whose headers never finish."""

from __future__ import annotations

import socket
import threading
import time

import uvicorn
from fastapi import FastAPI

from papermind.api.http_protocol import guarded_protocol
from tests.api.server import free_port


def test_slow_headers_are_cut_off() -> None:
    app = FastAPI()

    @app.get("/")
    def root() -> dict[str, str]:
        return {"ok": "yes"}

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None,
                                           http=guarded_protocol(0.5)))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            started = time.monotonic()
            closed = True
            while time.monotonic() - started < 5:
                try:
                    sock.sendall(b"X-Slow: 1\r\n")  # one header line at a time, never done
                except OSError:
                    break
                time.sleep(0.1)
            else:
                closed = False
        assert closed and time.monotonic() - started < 3
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert sock.recv(4096).startswith(b"HTTP/1.1 200")
    finally:
        server.should_exit = True
        thread.join(timeout=10)
