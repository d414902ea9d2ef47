"""How long `papermind --help` and `papermind list` take (best of N, wall and CPU).

    .venv/bin/python bench/cli_startup.py [--src SRC_DIR] [--runs 5]

Runs the console entry point in fresh processes against a small library (three text papers,
added once with the embedder off), reports the best wall time and the CPU time (user+sys of
the child) of that run, and the 1-minute load average so a loaded machine is visible.
``--src`` points at another checkout's src/ to time older code in the same run.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAPER = "# A study of {0}\n\n## Introduction\n\nWe study {0} in depth.\n\n## Results\n\n{0} works.\n"


def _run(src: Path, home: Path, args: list[str]) -> tuple[float, float]:
    env = {**os.environ, "PYTHONPATH": str(src), "PAPERMIND_HOME": str(home),
           "PAPERMIND_SEARCH__EMBEDDER": "none"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "from papermind.cli.app import main; main()", *args],
                   env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--src", type=Path, default=ROOT / "src")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home, docs = Path(tmp) / "home", Path(tmp) / "docs"
        docs.mkdir()
        for topic in ("graphs", "proteins", "galaxies"):
            (docs / f"{topic}.md").write_text(PAPER.format(topic))
        _run(args.src, home, ["add", str(docs)])
        print(f"src={args.src} load={os.getloadavg()[0]:.2f} runs={args.runs}")
        for command in (["--help"], ["list"]):
            runs = [_run(args.src, home, command) for _ in range(args.runs)]
            wall, cpu = min(runs)
            print(f"papermind {' '.join(command)}: best wall {wall:.3f} s, cpu {cpu:.3f} s")


if __name__ == "__main__":
    main()
