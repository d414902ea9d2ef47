"""/docs (Swagger UI) and /redoc render in headless Chromium with every non-local request
blocked: their scripts come from the installation, not a CDN."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from papermind.api.app import create_app
from tests.api.server import serve
from tests.support.containers import hashing_settings


@pytest.fixture
def docs_app(home: Path) -> Iterator[str]:
    with serve(create_app(hashing_settings(home))) as base:
        yield base


NEEDED = {"script", "stylesheet", "font", "fetch", "xhr", "document"}
"""What a page needs to work (ReDoc's footer also asks for its maker's logo, an image)."""


def _offline(page: Any, base: str) -> list[str]:
    """Abort every request that leaves ``base``; returns those the page needs to work."""
    blocked: list[str] = []

    def route(request_route: Any) -> None:
        request = request_route.request
        if request.url.startswith(base):
            request_route.continue_()
            return
        if request.resource_type in NEEDED:
            blocked.append(request.url)
        request_route.abort()

    page.route("**/*", route)
    return blocked


def _open_offline(page: Any, base: str, path: str, title: str) -> list[str]:
    """Open ``path`` with every outside request aborted, and see ``title`` name PaperMind;
    returns the blocked requests the page needed (none, when it works offline)."""
    blocked = _offline(page, base)
    page.goto(base + path)
    page.wait_for_selector(title, timeout=30_000)
    assert "PaperMind" in page.inner_text(title)
    return blocked


def test_swagger_ui_renders_offline(docs_app: str, browser_page: Any, shots: Any) -> None:
    page = browser_page
    blocked = _open_offline(page, docs_app, "/docs", ".swagger-ui .info .title")
    assert page.locator(".opblock").count() > 5, "the operations are listed"
    shots(page, "docs")
    assert blocked == [], blocked


def test_redoc_renders_offline(docs_app: str, browser_page: Any, shots: Any) -> None:
    page = browser_page
    blocked = _open_offline(page, docs_app, "/redoc", "h1")
    shots(page, "redoc")
    assert blocked == [], blocked
