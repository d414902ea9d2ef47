"""CPU cost per file of parsing in the limited worker process vs in-process.

Run: PYTHONPATH=src .venv/bin/python bench/parse_isolation.py [N]   (N PDFs, default 20)
Parses the first N PDFs under ../shared/data/pdfs (sorted) three ways, each in a fresh child
process: ``inproc`` (``parse_bytes`` here, what every entry point did before), ``worker``
(``ParseSandbox.parse``: this process sends the bytes, the worker parses and answers with
the Paper's JSON, this process validates it); the worker's start (one interpreter and the
ingest imports, once per process) is reported apart. CPU time (user + system, this process
and its children) is what counts: wall time on a shared machine is not comparable.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("PAPERMIND_SHARED_DATA") or next(
    (f / "shared" / "data" for f in ROOT.parents if (f / "shared" / "data").is_dir()),
    ROOT.parent / "shared" / "data")) / "pdfs"


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _run(mode: str, paths: list[Path]) -> dict[str, float]:
    from papermind.config import IngestSettings

    settings = IngestSettings()
    blobs = [(p.read_bytes(), p.name) for p in paths]
    if mode == "inproc":
        from papermind.ingest.parse import parse_bytes

        parse_bytes(*blobs[0], settings=settings)  # imports and first-use costs, untimed
        start = _cpu()
        for data, name in blobs:
            _refusing(parse_bytes, data, name, settings=settings)
        return {"cpu_s": _cpu() - start, "start_cpu_s": 0.0}
    from papermind.ingest.sandbox import Limits, ParseSandbox

    sandbox = ParseSandbox(Limits.of(settings))
    before = _cpu()
    sandbox.parse(*blobs[0], settings)
    sandbox.close()  # the first worker's start and first parse, collected as a child
    first = _cpu() - before
    sandbox.parse(*blobs[0], settings)  # a fresh worker, warmed up, untimed
    assert sandbox._proc is not None
    pid = sandbox._proc.pid
    start, worker_start = _cpu(), _proc_cpu(pid)
    for data, name in blobs:
        _refusing(sandbox.parse, data, name, settings)
    total = _cpu() - start + _proc_cpu(pid) - worker_start
    sandbox.close()
    return {"cpu_s": total, "start_cpu_s": first}


def _refusing(parse: Any, *args: Any, **kwargs: Any) -> None:
    """Parse; a refused file (scanned, damaged) costs what it costs too."""
    from papermind.errors import PapermindError

    with contextlib.suppress(PapermindError):
        parse(*args, **kwargs)


def _proc_cpu(pid: int) -> float:
    """User + system CPU seconds of a running process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    paths = sorted(DATA.rglob("*.pdf"))[:count]
    if not paths:
        sys.exit(f"no PDFs under {DATA}")
    rows = {}
    for mode in ("inproc", "worker"):
        done = subprocess.run([sys.executable, __file__, "--child", mode, *map(str, paths)],
                              capture_output=True, text=True, check=True)
        rows[mode] = json.loads(done.stdout)
    inproc, worker = rows["inproc"]["cpu_s"], rows["worker"]["cpu_s"]
    print(f"{len(paths)} PDFs from {DATA}")
    print(f"in-process: {inproc:.2f} s CPU ({inproc / len(paths) * 1000:.0f} ms/file)")
    print(f"worker:     {worker:.2f} s CPU ({worker / len(paths) * 1000:.0f} ms/file), "
          f"{(worker / inproc - 1) * 100:+.1f}%")
    print(f"worker start + first parse: {rows['worker']['start_cpu_s']:.2f} s CPU (once per "
          "process)")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        print(json.dumps(_run(sys.argv[2], [Path(p) for p in sys.argv[3:]])))
    else:
        main()
