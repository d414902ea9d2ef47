"""The bundled model's server: one llama.cpp server per machine (``local.scope``: or per home).

The first PaperMind process that needs the bundled model starts it (``local_server_main``,
a detached child) under a lock; every later process -- the CLI, ``serve``, workers, ``mcp``
-- reads the state file and reuses it. The server listens on loopback only, asks for a
random bearer token, decodes ``local.parallel`` calls at once and queues the rest, and
stops itself after ``local.idle_stop_s`` without a call. Its threads come from the cores
free when it starts, with llama.cpp's OpenMP threads told to sleep rather than spin
(``OMP_WAIT_POLICY=PASSIVE``): a spinning thread on a shared core slowed generation tenfold.

Files, in the model folder's ``server/`` (``~/.cache/papermind/models/server``; with scope
'home', in ``<home>/local-model/``):
``server.lock`` (held while a process starts or checks the server), ``server.json`` (pid,
port, token, model; readable by its owner only) and ``server.log`` (the server's output).
"""

from __future__ import annotations

import fcntl
import json
import os
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

import httpx

from papermind.config import LocalModelSettings
from papermind.errors import ConfigError
from papermind.llm.local import model_dir, require_bundled

TOKEN_ENV = "PAPERMIND_LOCAL_SERVER_TOKEN"
"""How the token reaches the server process (an environment variable: never in ``ps``)."""
SERVER_MODULE = "papermind.llm.local_server_main"


@dataclass(frozen=True)
class ServerState:
    """What a client needs to reach a running server (the content of ``server.json``)."""

    pid: int
    port: int
    token: str
    model: str
    threads: int
    parallel: int
    started: float

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"


def server_dir(home: Path | None) -> Path:
    """Where the lock, state and log files of the server for ``home`` live (None: the
    machine's server, next to the assembled models)."""
    return (home / "local-model") if home is not None else model_dir() / "server"


def scoped_home(home: Path | None, settings: LocalModelSettings) -> Path | None:
    """The home whose server ``settings`` use: ``home`` with scope 'home', else None (the
    machine's)."""
    return home if settings.scope == "home" else None


def free_threads() -> int:
    """The cores not busy now (cores minus the 1-minute load average), at least 1."""
    cpus = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except OSError:  # pragma: no cover - platforms without a load average
        load = 0.0
    return max(1, min(cpus, int(cpus - load + 0.5)))


def read_state(folder: Path) -> ServerState | None:
    """The state file's server if its process is alive (a stale file is ignored)."""
    try:
        data = json.loads((folder / "server.json").read_text(encoding="utf-8"))
        state = ServerState(**data)
    except (OSError, ValueError, TypeError):
        return None
    return state if _alive(state.pid) else None


def write_state(folder: Path, state: ServerState) -> None:
    """Write ``server.json`` atomically, readable by its owner only (it holds the token)."""
    partial = folder / f"server.{os.getpid()}.partial"
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(asdict(state), out)
    partial.replace(folder / "server.json")


def _alive(pid: int) -> bool:
    try:
        if os.waitpid(pid, os.WNOHANG)[0] == pid:
            return False  # our own child, which has exited (now reaped)
    except ChildProcessError:
        pass  # not our child
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - someone else's process reused the pid
        return False
    return True


def healthy(state: ServerState, timeout_s: float = 5.0) -> bool:
    """Does the server answer its health check (model loaded)?"""
    try:
        response = httpx.get(f"http://127.0.0.1:{state.port}/health", timeout=timeout_s)
    except httpx.HTTPError:
        return False
    return response.status_code == 200


@contextmanager
def _locked(folder: Path) -> Iterator[None]:
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / "server.lock").open("a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def ensure_server(home: Path | None, settings: LocalModelSettings) -> ServerState:
    """The running server for ``home`` (or the machine's, as ``settings.scope`` says),
    started when absent (ConfigError when it cannot)."""
    home = scoped_home(home, settings)
    folder = server_dir(home)
    state = read_state(folder)
    if state is not None and _serves(state, settings) and healthy(state):
        return state
    with _locked(folder):
        state = read_state(folder)  # another process may have started it meanwhile
        if (state is not None and _serves(state, settings)
                and _wait_healthy(state, settings.start_timeout_s)):
            return state
        if state is not None:
            stop_server(home)
        model, path = require_bundled(settings.model)
        return start_server(folder, model.name, path, settings)


def _serves(state: ServerState, settings: LocalModelSettings) -> bool:
    return settings.model in ("auto", state.model)


def start_server(folder: Path, name: str, path: Path,
                 settings: LocalModelSettings) -> ServerState:
    """Start a server for the GGUF file ``path`` (served as ``name``) with its files in
    ``folder``, and wait until it answers (ConfigError when it does not)."""
    folder.mkdir(parents=True, exist_ok=True)
    threads = settings.threads or free_threads()
    command = [sys.executable, "-m", SERVER_MODULE, "--folder", str(folder), "--model",
               str(path), "--name", name, "--threads", str(threads), "--parallel",
               str(settings.parallel), "--context", str(settings.context_tokens),
               "--idle-stop", str(settings.idle_stop_s)]
    env = {**os.environ, TOKEN_ENV: secrets.token_urlsafe(24), "OMP_WAIT_POLICY": "PASSIVE"}
    (folder / "server.json").unlink(missing_ok=True)
    with (folder / "server.log").open("wb") as log:  # the output of the current server only
        child = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=log,
                                 stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + settings.start_timeout_s
    while time.monotonic() < deadline:
        state = read_state(folder)
        if state is not None and state.pid == child.pid and healthy(state):
            return state
        if child.poll() is not None:
            break
        time.sleep(0.2)
    if child.poll() is None:
        child.terminate()
    raise ConfigError("the bundled model's server did not start",
                      hint=f"its output is in {folder / 'server.log'}: {_tail(folder)}")


def _wait_healthy(state: ServerState, timeout_s: float) -> bool:
    """A server whose process lives may still be loading its model: wait for it."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and _alive(state.pid):
        if healthy(state):
            return True
        time.sleep(0.2)
    return False


def _tail(folder: Path, lines: int = 3) -> str:
    try:
        text = (folder / "server.log").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return "(no output)"
    return " | ".join(text.strip().splitlines()[-lines:]) or "(no output)"


def stop_server(home: Path | None, timeout_s: float = 10.0) -> bool:
    """Stop the server for ``home`` if one runs; True when one was stopped."""
    return stop_server_at(server_dir(home), timeout_s)


def stop_server_at(folder: Path, timeout_s: float = 10.0) -> bool:
    """Stop the server whose files are in ``folder``; True when one was stopped."""
    state = read_state(folder)
    if state is None:
        return False
    os.kill(state.pid, 15)
    deadline = time.monotonic() + timeout_s
    while _alive(state.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if _alive(state.pid):
        os.kill(state.pid, 9)
    (folder / "server.json").unlink(missing_ok=True)
    return True


def server_cpu_seconds(pid: int) -> float | None:
    """CPU seconds (user + system) the server process has used so far (Linux), or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
