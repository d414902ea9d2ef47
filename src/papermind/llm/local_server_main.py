"""The bundled model's server process (started by ``llm.local_server``; not a user command).

``python -m papermind.llm.local_server_main --folder F --model GGUF ...`` loads the model into
llama.cpp's own HTTP server (xllamacpp) on 127.0.0.1 and a free port, with the bearer token
from ``$PAPERMIND_LOCAL_SERVER_TOKEN``; writes ``F/server.json``; and exits after
``--idle-stop`` seconds without a call (read from the server's own counters), on SIGTERM,
or when the state file names another server.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

from papermind.llm.local import REPEAT_PENALTY
from papermind.llm.local_server import TOKEN_ENV, ServerState, read_state, write_state

POLL_S = 2.0
ACTIVITY = ("llamacpp:n_decode_total", "llamacpp:requests_processing",
            "llamacpp:requests_deferred", "llamacpp:prompt_tokens_total")
"""Metrics whose change (or non-zero in-flight count) means the server is in use."""


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="papermind-local-server")
    parser.add_argument("--folder", type=Path, required=True)
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--name", required=True)
    parser.add_argument("--threads", type=int, required=True)
    parser.add_argument("--parallel", type=int, default=2)
    parser.add_argument("--context", type=int, default=8192)
    parser.add_argument("--idle-stop", type=float, default=600.0)
    return parser.parse_args(argv)


def server_params(args: argparse.Namespace, token: str) -> Any:
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = str(args.model)
    params.model_alias = {args.name}
    params.hostnames = ["127.0.0.1"]
    params.port = 0  # a free port, chosen by the server
    params.api_keys = [token]
    params.n_parallel = args.parallel
    params.n_ctx = args.context * args.parallel
    params.cpuparams.n_threads = args.threads
    params.cpuparams_batch.n_threads = args.threads
    params.sampling.penalty_repeat = REPEAT_PENALTY
    params.endpoint_metrics = True
    params.ui = False
    params.warmup = False
    return params


def metrics(server: Any) -> dict[str, float]:
    """The server's Prometheus counters that show activity."""
    values: dict[str, float] = {}
    for line in str(server.handle_metrics()).splitlines():
        name, _, value = line.partition(" ")
        if name in ACTIVITY:
            try:
                values[name] = float(value)
            except ValueError:
                continue
    return values


def busy(now: dict[str, float], before: dict[str, float]) -> bool:
    return now != before or now.get("llamacpp:requests_processing", 0) > 0 or now.get(
        "llamacpp:requests_deferred", 0) > 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    token = os.environ.pop(TOKEN_ENV, "")
    if not token:
        print(f"{TOKEN_ENV} is not set", file=sys.stderr)
        return 2
    import xllamacpp

    server = xllamacpp.Server(server_params(args, token))
    port = int(str(server.listening_address).rsplit(":", 1)[1])
    args.folder.mkdir(parents=True, exist_ok=True)
    state = ServerState(os.getpid(), port, token, args.name, args.threads, args.parallel,
                        time.time())
    write_state(args.folder, state)
    signal.signal(signal.SIGTERM, lambda *_: _leave(args.folder, 0))
    print(f"serving {args.name} on 127.0.0.1:{port} with {args.threads} threads, "
          f"{args.parallel} parallel", flush=True)
    watch(server, args.folder, args.idle_stop)
    return _leave(args.folder, 0)


def watch(server: Any, folder: Path, idle_stop_s: float) -> None:
    """Return once the server has been idle ``idle_stop_s`` or another server took over."""
    last, quiet_since = metrics(server), time.monotonic()
    while True:
        time.sleep(POLL_S)
        now = metrics(server)
        if busy(now, last):
            quiet_since = time.monotonic()
        last = now
        current = read_state(folder)
        if current is None or current.pid != os.getpid():
            print("another server took over: stopping", flush=True)
            return
        if time.monotonic() - quiet_since >= idle_stop_s:
            print(f"idle for {idle_stop_s:g} s: stopping", flush=True)
            return


def _leave(folder: Path, code: int) -> int:
    current = read_state(folder)
    if current is not None and current.pid == os.getpid():
        (folder / "server.json").unlink(missing_ok=True)
    sys.stdout.flush()
    os._exit(code)  # the native server's threads would otherwise keep the process alive


if __name__ == "__main__":
    sys.exit(main())
