"""Token and cost accounting: one record per call, totals by node, role and job."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import asdict, dataclass
from typing import Protocol


@dataclass(frozen=True)
class Usage:
    """Totals over some calls."""

    calls: int = 0
    cached_calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0
    attempts: int = 0

    @property
    def tokens(self) -> int:
        return self.tokens_in + self.tokens_out

    def __add__(self, other: Usage) -> Usage:
        return Usage(self.calls + other.calls, self.cached_calls + other.cached_calls,
                     self.tokens_in + other.tokens_in, self.tokens_out + other.tokens_out,
                     self.cost_usd + other.cost_usd, self.attempts + other.attempts)

    def to_dict(self) -> dict[str, float | int]:
        return {**asdict(self), "tokens": self.tokens}


@dataclass(frozen=True)
class CallRecord:
    """What one gateway call cost (all its attempts together)."""

    role: str
    node: str | None
    job_id: str | None
    endpoint: str
    model: str
    tokens_in: int
    tokens_out: int
    cost_usd: float
    cached: bool
    attempts: int
    latency_s: float
    ok: bool = True

    def as_usage(self) -> Usage:
        return Usage(1, int(self.cached), self.tokens_in, self.tokens_out, self.cost_usd,
                     self.attempts)


def total(records: Iterable[CallRecord]) -> Usage:
    """Sum of the records' usage."""
    result = Usage()
    for record in records:
        result = result + record.as_usage()
    return result


class RecordStore(Protocol):
    """Durable records of a job's calls (llm.usage_store.CallStore)."""

    def add(self, record: CallRecord) -> None: ...

    def records(self, job_id: str) -> list[CallRecord]: ...


_CAPTURED: ContextVar[list[CallRecord] | None] = ContextVar("papermind_captured_calls",
                                                           default=None)


@contextmanager
def captured_calls() -> Iterator[list[CallRecord]]:
    """The records of the calls made in this context (this task and the tasks it starts),
    whatever other tasks or threads record on the same ledger meanwhile."""
    records: list[CallRecord] = []
    token = _CAPTURED.set(records)
    try:
        yield records
    finally:
        _CAPTURED.reset(token)


class UsageLedger:
    """Every call's record; a bound gateway sees a view restricted to its job.

    With a ``store``, a job's view holds the calls of every attempt of that job, also
    those made by an earlier process that was killed before the job finished.
    """

    def __init__(self, records: list[CallRecord] | None = None, *,
                 lock: threading.Lock | None = None, job_id: str | None = None,
                 store: RecordStore | None = None) -> None:
        self._records = records if records is not None else []
        self._lock = lock or threading.Lock()
        self.job_id = job_id
        self.store = store

    def add(self, record: CallRecord) -> None:
        with self._lock:
            self._records.append(record)
            if self.store is not None:
                self.store.add(record)
        if (captured := _CAPTURED.get()) is not None:
            captured.append(record)

    def for_job(self, job_id: str | None) -> UsageLedger:
        """A live view of this ledger restricted to one job (None = all calls)."""
        return UsageLedger(self._records, lock=self._lock, job_id=job_id, store=self.store)

    @property
    def records(self) -> list[CallRecord]:
        if self.job_id is not None and self.store is not None:
            with self._lock:
                return self.store.records(self.job_id)
        with self._lock:
            snapshot = list(self._records)
        if self.job_id is None:
            return snapshot
        return [r for r in snapshot if r.job_id == self.job_id]

    def total(self) -> Usage:
        return total(self.records)

    def by_node(self) -> dict[str, Usage]:
        return self._group(lambda r: r.node or "-")

    def by_role(self) -> dict[str, Usage]:
        return self._group(lambda r: r.role)

    def by_job(self) -> dict[str, Usage]:
        return self._group(lambda r: r.job_id or "-")

    def _group(self, key: Callable[[CallRecord], str]) -> dict[str, Usage]:
        groups: dict[str, Usage] = {}
        for record in self.records:
            name = key(record)
            groups[name] = groups.get(name, Usage()) + record.as_usage()
        return groups


def cost_usd(prices: dict[str, tuple[float, float]], model: str, tokens_in: int,
             tokens_out: int) -> float:
    """Cost from a price table of USD per million input / output tokens (0 if unknown)."""
    price = prices.get(model)
    if price is None:
        return 0.0
    return (tokens_in * price[0] + tokens_out * price[1]) / 1_000_000
