"""A job list that tells identical requests apart: when each job was made, which models it
called and which process ran it (the web's Jobs page and the library page's recent jobs)."""

from __future__ import annotations

import time
from dataclasses import dataclass

from papermind.db import SqlDatabase
from papermind.domain.job import Job
from papermind.llm.usage_store import CallStore


@dataclass(frozen=True)
class JobDetails:
    """What a row shows beside a job's title, kind and status."""

    created: str
    models: str
    origin: str


def job_details(db: SqlDatabase, jobs: list[Job]) -> dict[str, JobDetails]:
    """job id -> its creation time (local, to the minute), models called ('' when none yet)
    and owner ('host pid N'; '' when never taken)."""
    models = CallStore(db).models([j.id for j in jobs]) if jobs else {}
    return {j.id: JobDetails(created=time.strftime("%Y-%m-%d %H:%M", time.localtime(j.created_at)),
                             models=", ".join(models.get(j.id, [])),
                             origin=j.owner.label if j.owner is not None else "")
            for j in jobs}
