"""Test-wide guards: no network except loopback, a fresh library home per test."""

from __future__ import annotations

import ipaddress
import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.shared_data import SHARED_DATA

pytest_plugins = ["tests.support.postgres"]  # pg_server, pg_url, storage_url (both backends)

_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex


def _is_local(address: object) -> bool:
    if isinstance(address, tuple) and address:
        host = str(address[0])
        if host in {"localhost", ""}:
            return True
        try:
            return ipaddress.ip_address(host.split("%")[0]).is_loopback
        except ValueError:
            return False
    return True  # unix sockets


def _guarded_connect(self: socket.socket, address: object) -> None:
    if not _is_local(address):
        raise RuntimeError(f"network access blocked in tests: {address!r}")
    _real_connect(self, address)  # type: ignore[arg-type]


def _guarded_connect_ex(self: socket.socket, address: object) -> int:
    if not _is_local(address):
        raise RuntimeError(f"network access blocked in tests: {address!r}")
    return _real_connect_ex(self, address)  # type: ignore[arg-type]


socket.socket.connect = _guarded_connect  # type: ignore[method-assign]
socket.socket.connect_ex = _guarded_connect_ex  # type: ignore[method-assign]
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.pop("OPENAI_API_KEY", None)
os.environ["PAPERMIND_BLOCK_REAL_LLM"] = "1"  # llm.guard: only loopback endpoints in tests
os.environ["PAPERMIND_LLM__LOCAL__SCOPE"] = "home"  # a test's bundled-model server is its own


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh, empty PAPERMIND_HOME."""
    path = tmp_path / "home"
    monkeypatch.setenv("PAPERMIND_HOME", str(path))
    yield path
    from papermind.llm.local_server import stop_server

    stop_server(path)  # a bundled-model server the test started (a no-op when none)


@pytest.fixture
def shared_data() -> Path:
    """../shared/data, or skip with a clear message where it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared data not found at {SHARED_DATA}")
    return SHARED_DATA


_LOGGERS = ("papermind", "uvicorn", "uvicorn.error", "uvicorn.access")


@pytest.fixture(autouse=True)
def _logging_as_it_was() -> Iterator[None]:
    """A command run in-process (serve, worker) configures papermind's loggers for its
    terminal; give every test the loggers as they were, so one test's handler never prints
    into another's output."""
    import logging

    saved = [(lg, lg.handlers[:], lg.level, lg.propagate)
             for lg in map(logging.getLogger, _LOGGERS)]
    yield
    for logger, handlers, level, propagate in saved:
        logger.handlers[:] = handlers
        logger.setLevel(level)
        logger.propagate = propagate
