"""One client tries to freeze the server (issue 50): measured on localhost only.

A real `papermind serve` (its own temporary home) gets ``--clients`` concurrent uploads of a
PDF that costs seconds of CPU to parse (``--pages`` pages of text; each copy made unique by a
trailing comment, so it is parsed again), re-sent as soon as each
answers (after a 429, after its Retry-After, at most 1 s), for ``--seconds``; meanwhile this process asks
``/health``, ``/api/papers`` and a page image of a stored paper every 0.5 s and records how
long each took. Reported: latencies (max, p50, p95) per path, the uploads' statuses (429:
over the client's share), and the server's CPU seconds. Every loop is bounded.

    .venv/bin/python bench/hostile_load.py [--clients 41] [--seconds 60] [--pages 400] [--out FILE]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from tests.api.crash_harness import ServerProcess  # noqa: E402
from tests.api.hostile_files import pages_pdf  # noqa: E402

PROBES = ("/health", "/api/papers", "PAGE")


def _cpu_s(pid: int) -> float:
    """CPU seconds of ``pid`` and its children (the parsing workers) so far."""
    total = 0.0
    for proc in [pid, *_children(pid)]:
        fields = Path(f"/proc/{proc}/stat").read_text().rsplit(")", 1)[1].split()
        total += sum(int(v) for v in fields[11:13])  # utime stime
    return total / os.sysconf("SC_CLK_TCK")


def _children(pid: int) -> list[int]:
    """Live children of every thread of ``pid`` (the workers are started by worker threads)."""
    found = Path(f"/proc/{pid}/task").glob("*/children")
    return [int(c) for path in found for c in path.read_text().split()]


def _uploader(base: str, data: bytes, stop: float, codes: Counter[int]) -> None:
    with httpx.Client(base_url=base, timeout=120) as http:
        while time.monotonic() < stop:
            unique = data + b"\n%% %d\n" % time.monotonic_ns()  # a new file: parsed again
            try:
                answer = http.post("/api/papers", files={"file": ("burn.pdf", unique)})
                codes[answer.status_code] += 1
                if answer.status_code == 429:
                    time.sleep(min(float(answer.headers.get("retry-after", "1")), 1.0))
            except httpx.HTTPError:
                codes[0] += 1


def run(clients: int, seconds: float, pages: int) -> dict[str, object]:
    work = Path(tempfile.mkdtemp(prefix="hostile-load-"))
    server = ServerProcess(work / "home", "http://127.0.0.1:9/v1", work / "server.log").start()
    assert server.proc is not None
    try:
        with server.client() as http:
            page_pdf = pages_pdf(work / "paper.pdf", pages=3)
            assert isinstance(page_pdf, Path)
            paper = http.post("/api/papers", files={"file": ("p.pdf", page_pdf.read_bytes())})
            paper_id = paper.json()["id"]
            http.get(f"/api/papers/{paper_id}/pages/1.png")  # the pages worker is up
            burn_pdf = pages_pdf(work / "burn.pdf", pages=pages)
            assert isinstance(burn_pdf, Path)
            burn = burn_pdf.read_bytes()
            cpu_before = _cpu_s(server.proc.pid)
            stop = time.monotonic() + seconds
            codes: Counter[int] = Counter()
            threads = [threading.Thread(target=_uploader, args=(server.base, burn, stop, codes))
                       for _ in range(clients)]
            for thread in threads:
                thread.start()
            latencies: dict[str, list[float]] = {p: [] for p in PROBES}
            failures: Counter[str] = Counter()
            while time.monotonic() < stop:
                for probe in PROBES:
                    path = f"/api/papers/{paper_id}/pages/1.png" if probe == "PAGE" else probe
                    started = time.monotonic()
                    try:
                        ok = http.get(path, timeout=60).status_code == 200
                    except httpx.HTTPError:
                        ok = False
                    latencies[probe].append(time.monotonic() - started)
                    failures[probe] += not ok
                time.sleep(0.5)
            for thread in threads:
                thread.join(timeout=180)
            cpu = _cpu_s(server.proc.pid) - cpu_before
    finally:
        server.stop()
    return {"file_kb": len(burn) / 1024, "codes": dict(codes), "cpu_s": cpu,
            "latencies": {p: _summary(v) for p, v in latencies.items()},
            "failures": dict(failures)}


def _summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values) or [float("nan")]
    return {"n": len(values), "max": ordered[-1], "p50": statistics.median(ordered),
            "p95": ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]}


def render(result: dict[str, object], args: argparse.Namespace) -> str:
    lat = result["latencies"]
    assert isinstance(lat, dict)
    rows = [f"| `{'page image' if p == 'PAGE' else p}` | {s['n']} | {s['p50']:.3f} | "
            f"{s['p95']:.3f} | {s['max']:.3f} |" for p, s in lat.items()]
    return "\n".join([
        "# One client against the server: /health under load (issue 50)", "",
        f"`.venv/bin/python bench/hostile_load.py --clients {args.clients} --seconds "
        f"{args.seconds:g} --pages {args.pages}`", "",
        f"{args.clients} concurrent uploads of a {result['file_kb']:.1f} KB PDF of {args.pages} "
        f"pages for {args.seconds:g} s; upload statuses {result['codes']} (429: past the "
        f"client's share); server CPU {result['cpu_s']:.1f} s (server and its parsing "
        "workers). Probes every 0.5 s, seconds:", "",
        "| path | probes | p50 | p95 | max |", "| --- | --- | --- | --- | --- |", *rows, "",
        f"Failed probes: {result['failures']}. Machine shared with other work while measured "
        "(2 cores): latencies include waiting for a core.", ""])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=41)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--pages", type=int, default=400)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    text = render(run(args.clients, args.seconds, args.pages), args)
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
