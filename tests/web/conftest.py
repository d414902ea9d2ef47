"""Headless Chromium (Debian's binary) driven by Playwright; skips cleanly where absent.

Never downloads a browser: Playwright launches /usr/bin/chromium with the flags that keep it
off the network, in a fresh profile folder. Screenshots go to .artifacts/web/ (gitignored).
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / ".artifacts" / "web"
HERE = Path(__file__).resolve().parent
AXE = HERE / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core, pinned in tests/web/package.json + package-lock.json; `npm ci` installs it."""
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


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe-core's script, installed here by ``npm ci`` if needed (never kept in the
    repository); skips with the reason where npm or the registry is unavailable."""
    if not AXE.is_file():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("npm not found: cannot install axe-core (apt-get install -y npm)")
        done = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=HERE, timeout=300,
                              capture_output=True, text=True, check=False)
        if done.returncode != 0 or not AXE.is_file():
            pytest.skip(f"`npm ci` in tests/web failed: {done.stderr.strip()[-300:]}")
    return AXE.read_text(encoding="utf-8")
