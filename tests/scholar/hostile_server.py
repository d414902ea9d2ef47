"""A local HTTP server that misbehaves on purpose: redirects, huge answers, slow drips.

``HostileServer(plays)`` serves on 127.0.0.1 (a background thread); ``plays`` maps a path
to what happens there, and every request path is recorded in ``requests``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True)
class Play:
    """One path's behaviour: a status and headers, then ``chunks`` of ``chunk`` bytes, each
    after ``every_s`` seconds (no Content-Length unless ``declared``)."""

    status: int = 200
    headers: tuple[tuple[str, str], ...] = ()
    chunk: bytes = b"%PDF-1.4\n"
    chunks: int = 1
    every_s: float = 0.0
    declared: int | None = None


@dataclass
class HostileServer:
    plays: dict[str, Play]
    requests: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def do_GET(self) -> None:
                server.requests.append(self.path)
                play = server.plays.get(self.path.split("?")[0], Play(status=404, chunk=b""))
                self.send_response(play.status)
                for key, value in play.headers:
                    self.send_header(key, value)
                if play.declared is not None:
                    self.send_header("Content-Length", str(play.declared))
                self.end_headers()
                try:
                    for piece in _pieces(play):
                        self.wfile.write(piece)
                        self.wfile.flush()
                except OSError:
                    pass  # the client stopped reading: that is the point

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _pieces(play: Play) -> Iterator[bytes]:
    for _ in range(play.chunks):
        if play.every_s:
            time.sleep(play.every_s)
        yield play.chunk
