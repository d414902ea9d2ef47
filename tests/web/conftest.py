"""Headless Chromium (Debian's binary) driven by Playwright; skips cleanly where absent.

Never downloads a browser: Playwright launches /usr/bin/chromium with the flags that keep it
off the network, in a fresh profile folder. Screenshots go to .artifacts/web/ (gitignored).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / ".artifacts" / "web"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-quic", "--no-first-run"]


@pytest.fixture
def browser_page(tmp_path: Path) -> Iterator[Any]:
    """A Playwright page in a fresh headless Chromium profile."""
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is not installed (pip install -e '.[dev]')")
    if not Path(CHROMIUM).is_file():
        pytest.skip(f"chromium not found at {CHROMIUM} (apt-get install -y chromium)")
    with sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True, args=FLAGS,
            viewport={"width": 1280, "height": 1000})
        context.set_default_timeout(60_000)
        try:
            yield context.pages[0] if context.pages else context.new_page()
        finally:
            context.close()


@pytest.fixture
def shots(request: pytest.FixtureRequest) -> Any:
    """``shots(page, "name")`` saves .artifacts/web/<test>/<name>.png."""
    folder = ARTIFACTS / request.node.name
    folder.mkdir(parents=True, exist_ok=True)

    def save(page: Any, name: str) -> Path:
        path = folder / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return save
