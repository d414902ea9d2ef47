"""A worker loads what its first job needs before it registers for jobs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import asyncio, sys
from papermind.config import load_settings
from papermind.services.container import Container
from papermind.services.worker import warm_up
graphs = [f"papermind.workflows.{w}.graph" for w in ("review", "deep_reading", "deep_qa", "cited_qa")]
assert not any(g in sys.modules for g in graphs), "imported before the warm-up"
with Container(load_settings()) as box:
    asyncio.run(warm_up(box))
    assert all(g in sys.modules for g in graphs), [g for g in graphs if g not in sys.modules]
    assert "papermind.services.review" in sys.modules and "papermind.services.qa" in sys.modules
print("warm")
"""


def test_warm_up_loads_the_use_cases_graphs_and_gateway(tmp_path):
    env = {"PAPERMIND_HOME": str(tmp_path / "home"), "PAPERMIND_SEARCH__EMBEDDER": "hashing",
           "PAPERMIND_LLM__ENDPOINTS__DEFAULT__BASE_URL": "http://127.0.0.1:9/v1",
           "PAPERMIND_LLM__ENDPOINTS__DEFAULT__MODEL": "m", "PAPERMIND_BLOCK_REAL_LLM": "1",
           "PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "warm"
