"""Two processes adding 20 papers each to one PostgreSQL library: all 40 stored, none failed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[2]


def test_two_processes_add_twenty_papers_each(pg_url: str, tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    workers = [subprocess.Popen([sys.executable, "-m", "tests.support.concurrent_adds", str(home),
                                 pg_url, tag, "20"], cwd=ROOT, env=env, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
               for tag in ("left", "right")]
    outputs = [w.communicate(timeout=300) for w in workers]
    for worker, (_, err) in zip(workers, outputs, strict=True):
        assert worker.returncode == 0, err
    statuses = [line.split(" ", 1)[0] for out, _ in outputs for line in out.splitlines()]
    assert statuses == ["added"] * 40, outputs
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT COUNT(*) FROM papers").fetchone() == (40,)
        chunks = conn.execute("SELECT COUNT(DISTINCT paper_id) FROM search_chunks").fetchone()
        assert chunks == (40,)
        stats = conn.execute("SELECT chunks FROM search_stats WHERE grp = 'content'").fetchone()
        assert stats == conn.execute("SELECT COUNT(*) FROM search_chunks"
                                     " WHERE kind <> 'reference'").fetchone()
    assert len(list((home / "files").glob("*.md"))) == 40
