"""The bundled model's managed server: one per library home, started under a lock, reused,
restarted after a kill, reached over loopback with its token through the same OpenAI path as
any endpoint. A stand-in server process (tests/support/fake_local_server.py) replaces
llama.cpp, so these run without the `local` extra."""

from __future__ import annotations

import json
import logging
import os
import signal
import stat
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import BaseModel

from papermind.config import LLMSettings, LocalModelSettings
from papermind.errors import ConfigError
from papermind.llm import build_gateway, local_backend
from papermind.llm.local_backend import ManagedLocalBackend, describe_wait
from papermind.llm.local_server import (
    ServerState,
    ensure_server,
    free_threads,
    read_state,
    server_dir,
    stop_server,
)
from papermind.llm.testing import MockOpenAIServer
from tests.support.fake_local_server import FAKE_MODEL, use_fake_server

FAKE = FAKE_MODEL
FAST = LocalModelSettings(idle_stop_s=60, start_timeout_s=30, scope="home")


class Topic(BaseModel):
    """The topic of a sentence."""

    topic: str


@pytest.fixture
def fake_server(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    use_fake_server(monkeypatch)
    yield
    for home in tmp_path.iterdir():
        stop_server(home)


def test_one_server_per_home_started_once_and_reused(fake_server: object,
                                                     tmp_path: Path) -> None:
    home = tmp_path / "home"
    first = ensure_server(home, FAST)
    again = ensure_server(home, FAST)
    assert again == first
    state_file = server_dir(home) / "server.json"
    assert stat.S_IMODE(state_file.stat().st_mode) == 0o600  # it holds the token
    assert first.base_url.startswith("http://127.0.0.1:") and len(first.token) >= 24
    assert first.model == FAKE.name
    log = (server_dir(home) / "server.log").read_text()
    assert "OMP_WAIT_POLICY=PASSIVE" in log
    other = ensure_server(tmp_path / "other-home", FAST)
    assert other.pid != first.pid


def test_concurrent_starts_make_one_server(fake_server: object, tmp_path: Path) -> None:
    home = tmp_path / "home"
    pids: list[int] = []
    threads = [threading.Thread(target=lambda: pids.append(ensure_server(home, FAST).pid))
               for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(pids) == 4 and len(set(pids)) == 1


def test_a_killed_server_is_replaced(fake_server: object, tmp_path: Path) -> None:
    home = tmp_path / "home"
    first = ensure_server(home, FAST)
    os.kill(first.pid, signal.SIGKILL)
    second = ensure_server(home, FAST)
    assert second.pid != first.pid and read_state(server_dir(home)) == second


def test_stop_server(fake_server: object, tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert stop_server(home) is False
    state = ensure_server(home, FAST)
    assert stop_server(home) is True
    assert read_state(server_dir(home)) is None
    with pytest.raises(ProcessLookupError):
        os.kill(state.pid, 0)


def test_a_server_that_cannot_start_is_a_clear_error(fake_server: object, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_LOCAL_SERVER_FAIL", "1")
    with pytest.raises(ConfigError, match="did not start") as info:
        ensure_server(tmp_path / "home", FAST)
    assert "broken file" in (info.value.hint or "")


def test_threads_come_from_the_free_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("os.cpu_count", lambda: 4)
    monkeypatch.setattr("os.getloadavg", lambda: (0.2, 0.0, 0.0))
    assert free_threads() == 4
    monkeypatch.setattr("os.getloadavg", lambda: (2.6, 0.0, 0.0))
    assert free_threads() == 1
    monkeypatch.setattr("os.getloadavg", lambda: (9.0, 0.0, 0.0))
    assert free_threads() == 1


def test_local_threads_setting_overrides(fake_server: object, tmp_path: Path) -> None:
    state = ensure_server(tmp_path / "home", FAST.model_copy(update={"threads": 3}))
    assert state.threads == 3


async def test_the_bundled_model_goes_through_the_openai_path(fake_server: object,
                                                              tmp_path: Path) -> None:
    home = tmp_path / "home"
    settings = LLMSettings(cache=False, default_max_tokens=32, local=FAST)
    gateway = build_gateway(settings, home=home, local_model=FAKE.name)  # no endpoint
    assert gateway.is_demo_quality and gateway.resolve("reader").kind.bundled
    assert not gateway.resolve("checker").kind.judges
    result = await gateway.structured("reader", [("user", "Transformers.")], Topic)
    assert isinstance(result, Topic)
    state = read_state(server_dir(home))
    assert state is not None
    log = server_dir(home) / "server.log"
    assert log.exists()


async def test_a_call_after_a_kill_restarts_the_server(fake_server: object,
                                                       tmp_path: Path) -> None:
    home = tmp_path / "home"
    gateway = build_gateway(LLMSettings(cache=False, local=FAST), home=home,
                            local_model=FAKE.name)
    assert await gateway.text("reader", [("user", "one")]) == "mock reply"
    first = read_state(server_dir(home))
    assert first is not None
    os.kill(first.pid, signal.SIGKILL)
    assert await gateway.text("reader", [("user", "two")]) == "mock reply"
    second = read_state(server_dir(home))
    assert second is not None and second.pid != first.pid


async def test_schema_reaches_the_server_as_constraint_and_prompt(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    with MockOpenAIServer(model=FAKE.name) as mock:
        state = ServerState(os.getpid(), mock.port, "secret-token", FAKE.name, 1, 2, 0.0)
        monkeypatch.setattr(local_backend, "ensure_server", lambda home, settings: state)
        gateway = build_gateway(LLMSettings(cache=False, local=FAST), home=tmp_path,
                                local_model="whatever")
        await gateway.structured("reader", [("user", "Transformers.")], Topic)
    sent = mock.requests[0]
    assert sent["model"] == FAKE.name  # the name the server serves
    assert sent["response_format"]["type"] == "json_schema"
    assert sent["response_format"]["json_schema"]["schema"]["required"] == ["topic"]
    assert "JSON schema" in sent["messages"][0]["content"]  # the small model reads it too


def _endpoint() -> object:
    from papermind.llm.roles import endpoint_by_name

    return endpoint_by_name(LLMSettings(local=FAST), "local", FAKE.name)


def test_progress_says_when_a_call_waits_in_the_queue(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("os.getloadavg", lambda: (9.0, 9.0, 9.0))
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    waiting = describe_wait("reviewer", 31.0, 2, 2)
    assert "reviewer" in waiting and "queue (2 calls wait" in waiting
    assert "the machine is busy (load 9.0 on 2 CPUs)" in waiting
    assert "queue" not in describe_wait("reader", 16.0, 0, 2)


async def test_progress_is_logged_while_a_call_runs(fake_server: object, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    import asyncio

    backend = ManagedLocalBackend("local", _endpoint(), FAST, tmp_path / "home")  # type: ignore[arg-type]
    state = await backend.server()
    monkeypatch.setattr(ManagedLocalBackend, "every_s", 0.05)
    with caplog.at_level(logging.WARNING, logger="papermind.llm"):
        watcher = asyncio.create_task(backend._watch(state, "reviewer"))
        await asyncio.sleep(0.4)
        watcher.cancel()
    lines = [r.getMessage() for r in caplog.records if "local model (reviewer)" in r.getMessage()]
    assert lines and "still working" in lines[0]


def test_state_file_of_a_dead_process_is_ignored(tmp_path: Path) -> None:
    folder = tmp_path / "local-model"
    folder.mkdir()
    (folder / "server.json").write_text(json.dumps({
        "pid": 2 ** 22 + 12345, "port": 1, "token": "t", "model": "m", "threads": 1,
        "parallel": 1, "started": 0.0}))
    assert read_state(folder) is None


def test_by_default_two_homes_share_the_machines_server(fake_server: object, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAPERMIND_MODEL_DIR", str(tmp_path / "models"))
    machine = LocalModelSettings(start_timeout_s=30)
    assert machine.scope == "machine"
    one = ensure_server(tmp_path / "home-a", machine)
    two = ensure_server(tmp_path / "home-b", machine)
    try:
        assert one == two  # one model process for both libraries
        assert read_state(server_dir(None)) == one
        assert not (tmp_path / "home-a" / "local-model").exists()
    finally:
        stop_server(None)
