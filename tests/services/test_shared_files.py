"""``storage.files``: paper files in a folder every machine shares, so a process with another
home folder (a worker on another machine) reads the paper the API process stored."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

from papermind.services.container import Container
from tests.support.workers import ROOT, settings_for, worker_env
from tests.workflows.review.paper_text import write_paper

READ_PAPER = """
import hashlib, sys
from papermind.config import load_settings
from papermind.services.container import Container
with Container(load_settings()) as box:
    path = box.papers.file_path(sys.argv[1])
    title = box.papers.get(sys.argv[1]).title
    print(path.parent, hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else "-",
          title)
"""


def _read_elsewhere(env: dict[str, str], paper_id: str) -> list[str]:
    """What a separate process with ``env`` finds for the paper: folder, sha256, title."""
    import os

    run_env = {**os.environ, **env, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    done = subprocess.run([sys.executable, "-c", READ_PAPER, paper_id], env=run_env,
                          capture_output=True, text=True, timeout=120, check=True)
    return done.stdout.strip().split(maxsplit=2)


def test_a_process_with_another_home_reads_the_paper_from_storage_files(
        pg_url: str, tmp_path: Path) -> None:
    shared = tmp_path / "shared-files"
    api = worker_env(tmp_path / "api-home", pg_url, "http://127.0.0.1:9/v1",
                     PAPERMIND_STORAGE__FILES=str(shared))
    source = write_paper(tmp_path)
    with Container(settings_for(api)) as box:
        added = box.library.add_file(source, embed=False)
        assert added.paper_id, added
    assert [p.parent for p in shared.glob("*.md")] == [shared]
    assert not (tmp_path / "api-home" / "files").exists()
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    worker = {**api, "PAPERMIND_HOME": str(tmp_path / "worker-home")}
    assert _read_elsewhere(worker, added.paper_id) == [
        str(shared), digest, "Zebraformer: Sparse Routing for Long Legal Documents"]
    alone = {k: v for k, v in worker.items() if k != "PAPERMIND_STORAGE__FILES"}  # <home>/files
    folder, found, _ = _read_elsewhere(alone, added.paper_id)
    assert (folder, found) == (str(tmp_path / "worker-home" / "files"), "-")
