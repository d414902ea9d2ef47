"""Files are written whole or not at all; a full disk is a StorageError naming the place;
a job whose writes hit a full disk fails with that message."""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from papermind.disk_writes import storage_fault, write_atomically
from papermind.errors import StorageError
from papermind.services import report_files
from tests.support.tiny_fs import fill, tiny_tmpfs


def test_a_full_disk_leaves_the_old_file_and_no_temporary_one(tmp_path: Path) -> None:
    with tiny_tmpfs(tmp_path / "tiny", size="1m") as mount:
        target = mount / "reports" / "report.md"
        write_atomically(target, "the old report")
        fill(mount, leave=8192)
        with pytest.raises(StorageError, match=f"no space left on the device at {target}"):
            write_atomically(target, "x" * 200_000)
        assert target.read_text() == "the old report"
        assert sorted(p.name for p in target.parent.iterdir()) == ["report.md"]


def test_reports_are_all_written_or_the_error_names_the_disk(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    texts = {"report.json": "{}", "report.md": "# R\n" + "text " * 60_000, "report.html": "<p>"}
    monkeypatch.setattr(report_files, "render_reports", lambda report: texts)
    with tiny_tmpfs(tmp_path / "tiny", size="1m") as mount:
        fill(mount, leave=16384)
        with pytest.raises(StorageError, match="no space left on the device"):
            report_files.write_reports(object(), mount / "job")
        assert not [p for p in (mount / "job").iterdir() if p.name != "report.json"]


@pytest.mark.parametrize(("err", "cause"), [
    (OSError(errno.ENOSPC, "No space left on device", "/lib/x.db"),
     "no space left on the device at /lib/x.db"),
    (sqlite3.OperationalError("database or disk is full"), "no space left on the device at /h"),
    (OSError(errno.EROFS, "Read-only file system", "/ro"), "the file system is read-only at /ro"),
    (RuntimeError("wrapped"), None),
])
def test_faults_are_recognised_through_the_chain(err: Exception, cause: str | None) -> None:
    try:
        try:
            raise err
        except Exception as inner:
            raise RuntimeError("a wrapper") from inner
    except RuntimeError as outer:
        fault = storage_fault(outer, "/h")
    assert (fault.message if fault else None) == cause


async def test_a_job_that_hits_a_full_disk_fails_with_the_cause(tmp_path: Path) -> None:
    from papermind.db import Database
    from papermind.domain.job import JobRequest
    from papermind.services.job_store import JobStore
    from papermind.services.jobs import JobService

    async def writes_a_report(job: Any, progress: Any) -> Any:
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "reports"))

    service = JobService(JobStore(Database(tmp_path / "lib.sqlite3")),
                         {"question": writes_a_report}, workers=1)
    job, _ = service.submit(JobRequest(kind="question", question="Why?"))
    done = await service.wait(job.id, timeout=10)
    assert done.status == "failed"
    assert (done.error or "").startswith(f"no space left on the device at {tmp_path / 'reports'} ")
