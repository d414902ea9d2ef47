"""What the tools share in one server process: the settings, and the container and job
service built from them on the first call that needs them (so the server starts fast)."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

import anyio.to_thread

from papermind.reports import page_href

if TYPE_CHECKING:
    from collections.abc import Callable

    from papermind.config import Settings
    from papermind.domain import Anchor
    from papermind.services.container import Container
    from papermind.services.jobs import JobService


class Runtime:
    """One per server: the CLI's settings (home, env) and, lazily, its container."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.limit = settings.mcp.max_result_chars
        self._container: Container | None = None
        self._jobs: JobService | None = None
        self._lock = threading.Lock()

    @property
    def container(self) -> Container:
        with self._lock:
            if self._container is None:
                from papermind.services.container import Container

                self._container = Container(self.settings)
            return self._container

    def jobs(self) -> JobService:
        """The job service (call on the server's event loop: it schedules jobs there)."""
        if self._jobs is None:
            self._jobs = self.container.job_service()
        return self._jobs

    async def call(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run a blocking service call in a worker thread."""
        return await anyio.to_thread.run_sync(lambda: fn(*args, **kwargs))

    def link(self, anchor: Anchor, paper_id: str = "") -> str | None:
        """The web reader at ``anchor``, when ``mcp.reader_url`` names a running server."""
        base = self.settings.mcp.reader_url
        return None if not base else base.rstrip("/") + page_href(anchor, paper_id=paper_id)

    async def close(self) -> None:
        if self._jobs is not None:
            await self._jobs.stop()
        if self._container is not None:
            self._container.close()
