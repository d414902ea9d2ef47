"""Every bench script still imports: a rename in src/ must not silently break a benchmark
(three did, search_latency.py, locate_speed.py and reader_text_layer.py, and nothing noticed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"

_IMPORT_ALL = """
import importlib.util, pathlib, sys, traceback
failed = []
for path in sys.argv[1:]:
    sys.path.insert(0, str(pathlib.Path(path).parent))  # as when run: its folder first
    name = "bench_script_" + pathlib.Path(path).stem
    spec = importlib.util.spec_from_file_location(name, path)
    module = sys.modules[name] = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)  # __name__ is not "__main__": nothing runs
    except BaseException:
        failed.append(path + ": " + traceback.format_exc(limit=1).strip().splitlines()[-1])
print("\\n".join(failed))
sys.exit(1 if failed else 0)
"""


def test_every_bench_script_imports() -> None:
    scripts = sorted(str(p) for p in BENCH.glob("*.py"))
    assert len(scripts) > 10
    done = subprocess.run([sys.executable, "-c", _IMPORT_ALL, *scripts], capture_output=True,
                          text=True, timeout=300, cwd=BENCH.parent)
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]
