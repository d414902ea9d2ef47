"""Crash-and-resume, ten times: SIGKILL `papermind serve` mid-review at different points.

Each repetition starts a fresh server subprocess (own PAPERMIND_HOME) against a mock model
server with latency, submits a full-panel review, kills the server with SIGKILL once N nodes
have finished (plus a delay, so calls are in flight), restarts it and waits for the job. A
repetition passes when the job completes with the uninterrupted run's report and no node
that had finished before the kill is called again (the checkpoints and the response cache).

    .venv/bin/python bench/crash_resume.py [--reps 10] [--latency 0.4]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from tests.api.crash_harness import check, crash_run, uninterrupted_run  # noqa: E402
from tests.workflows.review.panel_mock import panel_responder  # noqa: E402

from papermind.llm.testing import MockOpenAIServer  # noqa: E402

KILL_POINTS = [(1, 0.1), (1, 0.5), (2, 0.0), (4, 0.1), (4, 0.5),
               (5, 0.0), (6, 0.1), (6, 0.5), (1, 0.3), (4, 0.3)]
"""(finished nodes seen, delay as a fraction of the latency) per repetition, cycled."""


def main(reps: int, latency: float) -> list[str]:
    rows = []
    passed = 0
    with MockOpenAIServer(responder=panel_responder, latency_s=latency) as mock, \
            tempfile.TemporaryDirectory(prefix="crash-") as tmp:
        work = Path(tmp)
        reference = uninterrupted_run(work, mock)
        for n in range(reps):
            after, fraction = KILL_POINTS[n % len(KILL_POINTS)]
            started = time.perf_counter()
            try:
                crashed = crash_run(work / f"rep{n}", mock, after_nodes=after,
                                    delay_s=fraction * latency)
                problems = check(reference, crashed)
                done = ", ".join(crashed.completed_before_kill)
                calls = f"{len(crashed.requests)} / {len(reference.requests)}"
                repeats = ", ".join(f"{k} x{v}" for k, v in sorted(crashed.repeated().items()))
            except (AssertionError, RuntimeError) as err:
                problems, done, calls, repeats = [str(err)], "?", "?", "?"
            passed += not problems
            rows.append(f"| {n + 1} | {after} + {fraction * latency:.2f} s | {done} | {calls} "
                        f"| {repeats or '-'} | {'pass' if not problems else '; '.join(problems)} "
                        f"| {time.perf_counter() - started:.0f} |")
            print(rows[-1], flush=True)
    return [f"**{passed}/{reps} repetitions passed** (mock latency {latency:.2f} s per call, "
            "full panel: 6 model calls uninterrupted)", "",
            "| rep | kill after nodes + delay | finished before kill | calls (crash / "
            "uninterrupted) | repeated calls (in flight at the kill) | result | s |",
            "|---|---|---|---|---|---|---|", *rows]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=10)
    parser.add_argument("--latency", type=float, default=0.4)
    args = parser.parse_args()
    lines = main(args.reps, args.latency)
    command = " ".join(["python", "bench/crash_resume.py", *sys.argv[1:]])
    text = "\n".join(["# Crash and resume of a review job (SIGKILL of `papermind serve`)", "",
                      f"Command: `.venv/bin/{command}`", "", *lines, ""])
    print(text)
    out = ROOT / "bench" / "results" / "api_crash_resume.md"
    out.write_text(text, encoding="utf-8")
