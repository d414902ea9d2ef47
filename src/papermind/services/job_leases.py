"""One owner per job: who holds a job, whether that owner is still there, and its heartbeat.

A process that runs a job (``papermind serve``, a worker, a CLI ``read`` / ``review`` /
``ask``) first takes the job's lease in the job store (``JobRecords.take``, atomic on SQLite
and PostgreSQL alike), then renews it every third of ``jobs.lease_s`` from a daemon thread
(the event loop may be busy with a local model for minutes). Another process resumes a job
only when its lease is over:

- its time has passed (the owner stopped beating: killed, frozen, its machine gone), or
- at once, when the owner ran on this host and that process is gone (a server killed and
  restarted on the same machine resumes its jobs without waiting out the lease).

Two processes that both find a lease over race on one atomic update: one resumes the job,
the other leaves it (exactly once).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path

from papermind.domain.job import Job, JobOwner
from papermind.services.job_store import JobRecords

log = logging.getLogger("papermind.jobs")
START_TOLERANCE_S = 2.0
"""Two start times closer than this are one process (/proc's clock is coarse)."""


def process_started(pid: int) -> float | None:
    """When process ``pid`` of this host started (Unix time), where /proc tells; else None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        boot = next(float(line.split()[1]) for line in Path("/proc/stat").read_text().splitlines()
                    if line.startswith("btime "))
        return boot + int(fields[19]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, StopIteration):
        return None


_STARTED = process_started(os.getpid()) or time.time()


def this_process() -> JobOwner:
    """This process as a job owner: host, PID and start time."""
    return JobOwner(host=socket.gethostname(), pid=os.getpid(), started_at=_STARTED)


def owner_gone(owner: JobOwner) -> bool:
    """Whether ``owner`` ran on this host and is certainly not running any more (its PID is
    free, or now another process's). An owner on another host is never judged here."""
    if owner.host != socket.gethostname():
        return False
    if owner.pid == os.getpid():
        return abs(owner.started_at - _STARTED) > START_TOLERANCE_S
    try:
        os.kill(owner.pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # alive, another user's
        pass
    started = process_started(owner.pid)
    return started is not None and abs(started - owner.started_at) > START_TOLERANCE_S


def lease_live(job: Job, now: float | None = None) -> bool:
    """Whether a live owner holds ``job`` now (then nobody else may run it)."""
    if job.finished or job.owner is None or job.lease_until is None:
        return False
    if job.lease_until < (time.time() if now is None else now):
        return False
    return not owner_gone(job.owner)


def take_over(store: JobRecords, job: Job, owner: JobOwner, lease_s: float) -> bool:
    """Take ``job`` for ``owner`` unless a live owner holds it (a gone one is replaced)."""
    if lease_live(job) and job.owner != owner:
        return False
    gone = job.owner if job.owner is not None and owner_gone(job.owner) else None
    return store.take(job.id, owner, lease_s, replacing=gone)


class LeaseKeeper:
    """Holds this process's job leases and renews them from a daemon thread.

    ``on_lost(job_id)`` is called (from that thread) when a renewal fails: the job was
    finished (cancelled) elsewhere, or its lease passed and another process took it."""

    def __init__(self, store: JobRecords, lease_s: float, *,
                 on_lost: Callable[[str], None] | None = None) -> None:
        if lease_s <= 0:
            raise ValueError("jobs.lease_s must be positive")
        self.store = store
        self.lease_s = lease_s
        self.owner = this_process()
        self.on_lost = on_lost
        self._held: set[str] = set()
        self._watchers: dict[str, Callable[[str], None]] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def take(self, job: Job, *, on_lost: Callable[[str], None] | None = None) -> bool:
        """Take ``job``'s lease (see ``take_over``) and keep renewing it; ``on_lost``: told
        instead of the keeper's own callback when this job's lease is lost."""
        if not take_over(self.store, job, self.owner, self.lease_s):
            return False
        with self._lock:
            self._held.add(job.id)
            if on_lost is not None:
                self._watchers[job.id] = on_lost
            if self._thread is None:
                self._thread = threading.Thread(target=self._beat, name="job-leases",
                                                daemon=True)
                self._thread.start()
        return True

    def holds(self, job_id: str) -> bool:
        with self._lock:
            return job_id in self._held

    def drop(self, job_id: str, *, release: bool = False) -> None:
        """Stop renewing ``job_id``; ``release``: end the lease now (a graceful stop)."""
        with self._lock:
            held = job_id in self._held
            self._held.discard(job_id)
            self._watchers.pop(job_id, None)
        if held and release:
            self.store.release(job_id, self.owner)

    def close(self, *, release: bool = True) -> None:
        """Stop the heartbeat; ``release``: end every held lease now."""
        with self._lock:
            held = sorted(self._held)
        for job_id in held:
            self.drop(job_id, release=release)
        self._stop.set()
        with self._lock:
            thread, self._thread = self._thread, None
            self._stop = threading.Event()  # a later take starts a new heartbeat
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5)

    def _beat(self) -> None:
        stop = self._stop
        while not stop.wait(self.lease_s / 3):
            with self._lock:
                held = sorted(self._held)
            for job_id in held:
                self._renew(job_id)

    def _renew(self, job_id: str) -> None:
        try:
            kept = self.store.renew(job_id, self.owner, self.lease_s)
        except Exception:  # the store is briefly away: the next beat tries again
            log.warning("job lease not renewed", extra={"job_id": job_id}, exc_info=True)
            return
        if kept or not self.holds(job_id):
            return
        with self._lock:
            told = self._watchers.get(job_id, self.on_lost)
        self.drop(job_id)
        log.warning("job lease lost", extra={"job_id": job_id})
        if told is not None:
            told(job_id)
