"""Hostile input and hard faults, measured (issue 13).

1. a 2 GiB-inflating FlateDecode bomb (~2 MB file): `papermind parse` exit code and peak RSS;
   `POST /api/papers` status and the server's peak RSS (VmHWM);
2. five rounds of 40 parallel page-image requests (each round next to a parsing upload)
   against `papermind serve`: deaths, statuses, a good upload afterwards;
3. the cost of durability="sync" against LangGraph's default "async" (SQLite checkpointer);
4. the bomb check's CPU time over the real PDFs in ../shared/data/pdfs (when present).

    .venv/bin/python bench/hostile_input.py [--bomb-mb 2048] [--rounds 5] [--out FILE]

$PAPERMIND_SHARED_DATA overrides where ../shared/data is looked for (e.g. from a worktree).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, TypedDict

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from tests.api.crash_harness import ServerProcess  # noqa: E402
from tests.api.hostile_files import bomb_pdf  # noqa: E402
from tests.api.page_burst import run_bursts  # noqa: E402
from tests.support.shared_data import SHARED_DATA  # noqa: E402


def cli_bomb(bomb: Path, home: Path) -> dict[str, Any]:
    env = {**os.environ, "PAPERMIND_HOME": str(home)}
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "papermind", "parse", str(bomb)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    err = proc.stderr.read().decode()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return {"exit": proc.returncode, "peak_rss_mib": usage.ru_maxrss / 1024,
            "cpu_s": usage.ru_utime + usage.ru_stime, "wall_s": time.perf_counter() - started,
            "message": err.strip().splitlines()[-1] if err.strip() else ""}


def _vm_hwm_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def upload_bomb(bomb: Path, work: Path) -> dict[str, Any]:
    work.mkdir(parents=True, exist_ok=True)
    server = ServerProcess(work / "home", "http://127.0.0.1:9/v1", work / "server.log").start()
    try:
        assert server.proc is not None
        before = _vm_hwm_mib(server.proc.pid)
        with server.client() as client:
            started = time.perf_counter()
            done = client.post("/api/papers", files={"file": ("bomb.pdf", bomb.read_bytes())},
                               timeout=600)
            wall = time.perf_counter() - started
            stored = len(client.get("/api/papers").json())
        return {"status": done.status_code, "detail": done.json().get("detail", ""),
                "server_peak_rss_mib_before": before,
                "server_peak_rss_mib_after": _vm_hwm_mib(server.proc.pid),
                "wall_s": wall, "papers_stored": stored}
    finally:
        server.stop()


class _State(TypedDict, total=False):
    n: int


async def _durability_run(mode: str, steps: int, path: Path) -> float:
    from langgraph.graph import END, START, StateGraph

    from papermind.config import Settings
    from papermind.services.container import Container

    async def step(state: _State) -> dict[str, int]:
        return {"n": state.get("n", 0) + 1}

    graph: StateGraph[Any, Any, Any, Any] = StateGraph(_State)
    names = [f"s{i}" for i in range(steps)]
    for name in names:
        graph.add_node(name, step)
    graph.add_edge(START, names[0])
    for a, b in zip(names, names[1:], strict=False):
        graph.add_edge(a, b)
    graph.add_edge(names[-1], END)
    async with Container(Settings(home=path)).checkpointer() as saver:  # <path>/checkpoints
        app = graph.compile(checkpointer=saver)
        started = time.perf_counter()
        async for _ in app.astream({"n": 0}, {"configurable": {"thread_id": mode}},
                                   stream_mode="updates", durability=mode):  # type: ignore[arg-type]
            pass
        return time.perf_counter() - started


def durability_cost(work: Path, steps: int = 200) -> dict[str, float]:
    out = {}
    for mode in ("async", "sync", "async", "sync"):
        seconds = asyncio.run(_durability_run(mode, steps, work / f"cp-{mode}-{len(out)}.sqlite3"))
        out[f"{mode}_{len(out)}"] = seconds / steps * 1000
    return out


def scan_cost() -> dict[str, Any]:
    from papermind.ingest.pdf_streams import check_stream_sizes

    data = Path(os.environ.get("PAPERMIND_SHARED_DATA", SHARED_DATA))
    files = sorted((data / "pdfs").rglob("*.pdf"))
    if not files:
        return {"skipped": f"no PDFs under {data / 'pdfs'}"}
    cpu, wall, size, decoded = time.process_time(), time.perf_counter(), 0, 0
    for path in files:
        data = path.read_bytes()
        size += len(data)
        decoded += check_stream_sizes(data, path.name, max_stream_mb=128, max_total_mb=2048)
    return {"files": len(files), "mib": size / 2**20, "decoded_mib": decoded / 2**20,
            "cpu_s": time.process_time() - cpu, "wall_s": time.perf_counter() - wall}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bomb-mb", type=int, default=2048)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "hostile_input.md")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        started = time.perf_counter()
        bomb = bomb_pdf(work / "bomb.pdf", args.bomb_mb, level=9)
        built = time.perf_counter() - started
        results = {
            "bomb_file_mib": bomb.stat().st_size / 2**20, "bomb_build_s": built,
            "cli": cli_bomb(bomb, work / "cli-home"),
            "upload": upload_bomb(bomb, work / "upload"),
        }
        burst = run_bursts(work / "burst", rounds=args.rounds, parallel=40)
        results["burst"] = {"rounds": args.rounds, "requests": len(burst.statuses),
                            "ok_200": burst.statuses.count(200), "alive": burst.alive,
                            "uploads": burst.upload_statuses,
                            "good_upload_after": burst.good_upload_after,
                            "round_s": [round(s, 2) for s in burst.seconds]}
        results["durability_ms_per_step"] = durability_cost(work)
        results["bomb_check_over_real_pdfs"] = scan_cost()
    results["self_cpu_s"] = resource.getrusage(resource.RUSAGE_SELF).ru_utime
    results["load_avg"] = os.getloadavg()
    text = "\n".join(f"- {k}: {v}" for k, v in results.items())
    print(text)
    args.out.write_text("# Hostile input (issue 13)\n\n"
                        f"`.venv/bin/python bench/hostile_input.py --bomb-mb {args.bomb_mb} "
                        f"--rounds {args.rounds}` on a shared 2-core machine (loaded; see "
                        "load_avg).\n\n" + text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
