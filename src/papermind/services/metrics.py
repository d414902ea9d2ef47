"""``GET /metrics``: the Prometheus text format (version 0.0.4), written here (a few dozen
lines; no client library and no global registry of a dependency's).

Two sources. What the database knows is read at scrape time, so it covers every process
that shares the library (``serve`` and any workers): jobs by kind and state, the queue's
depth, and the model calls of jobs (calls, tokens and latency by role and endpoint, from
``llm_calls``). What only this process sees is counted in ``REGISTRY``: files refused at
parse time by reason, and search latency.
"""

from __future__ import annotations

import math
import re
import threading
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from papermind.db import SqlDatabase

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0,
                   120.0)
REFUSAL_REASONS: tuple[tuple[str, str], ...] = (
    ("decompression bomb", "decompression_bomb"), ("encrypted", "encrypted"),
    ("; the limit is", "too_many_pages"), ("cpu", "cpu_limit"), ("memory", "memory_limit"),
    ("address space", "memory_limit"), ("wall-clock", "time_limit"), ("timed out", "time_limit"),
    ("crash", "parser_crash"), ("killed", "parser_crash"), ("too large", "too_large"),
    ("limit", "too_large"),
    ("no text layer", "no_text"), ("no usable text", "no_text"), ("damaged", "damaged"),
    ("without pages", "damaged"), ("is empty", "empty"), ("not a pdf", "wrong_type"),
    ("cannot read", "unreadable"), ("no space left", "disk_full"))
"""(words in the refusal message, reason label): first match wins; else 'other'."""
Labels = tuple[tuple[str, str], ...]


def refusal_reason(message: str) -> str:
    """The bounded label of a refusal message ('encrypted', 'too_large', ... or 'other')."""
    lowered = message.lower()
    return next((label for words, label in REFUSAL_REASONS if words in lowered), "other")


@dataclass
class _Histogram:
    buckets: list[int] = field(default_factory=lambda: [0] * len(LATENCY_BUCKETS))
    total: float = 0.0
    count: int = 0


class Registry:
    """This process's counters and latency histograms (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counters: dict[str, dict[Labels, float]] = defaultdict(dict)
        self._histograms: dict[str, dict[Labels, _Histogram]] = defaultdict(dict)

    def count(self, name: str, value: float = 1.0, **labels: str) -> None:
        key = tuple(sorted(labels.items()))
        with self._lock:
            self._counters[name][key] = self._counters[name].get(key, 0.0) + value

    def observe(self, name: str, seconds: float, **labels: str) -> None:
        key = tuple(sorted(labels.items()))
        with self._lock:
            hist = self._histograms[name].setdefault(key, _Histogram())
            for i, bound in enumerate(LATENCY_BUCKETS):
                hist.buckets[i] += seconds <= bound
            hist.total += seconds
            hist.count += 1

    def refused(self, message: str) -> None:
        """A file refused at parse time, counted by reason."""
        self.count("papermind_parse_refusals_total", reason=refusal_reason(message))

    def lines(self) -> list[str]:
        with self._lock:
            out = list(_counter_lines("papermind_parse_refusals_total",
                                      "Files refused at parse time by this process, by reason",
                                      self._counters.get("papermind_parse_refusals_total", {})))
            out += _histogram_lines("papermind_search_latency_seconds",
                                    "Search latency in this process, by mode",
                                    self._histograms.get("papermind_search_latency_seconds", {}))
        return out


REGISTRY = Registry()


def render(db: SqlDatabase, registry: Registry = REGISTRY) -> str:
    """The whole exposition: database-wide families, then this process's."""
    lines = _job_lines(db) + _llm_lines(db) + registry.lines()
    return "\n".join(lines) + "\n"


def _job_lines(db: SqlDatabase) -> list[str]:
    rows = db.query("SELECT kind, status, COUNT(*) AS n FROM jobs GROUP BY kind, status") \
        if db.has_tables(["jobs"]) else []
    jobs: dict[Labels, float] = {(("kind", str(r["kind"])), ("state", str(r["status"]))):
                                 float(r["n"]) for r in rows}
    queued = sum(n for labels, n in jobs.items() if dict(labels)["state"] == "queued")
    return [*_family("papermind_jobs", "gauge", "Jobs by kind and state", jobs),
            *_family("papermind_queue_depth", "gauge", "Jobs waiting to run", {(): queued})]


def _llm_lines(db: SqlDatabase) -> list[str]:
    rows = db.query(
        "SELECT role, endpoint, ok, COUNT(*) AS calls, SUM(tokens_in) AS tin,"
        " SUM(tokens_out) AS tout, SUM(latency_s) AS seconds FROM llm_calls"
        " GROUP BY role, endpoint, ok") if db.has_tables(["llm_calls"]) else []
    calls: dict[Labels, float] = {}
    tokens: dict[Labels, float] = defaultdict(float)
    for r in rows:
        base = (("endpoint", str(r["endpoint"])), ("role", str(r["role"])))
        calls[(*base, ("outcome", "ok" if r["ok"] else "error"))] = float(r["calls"])
        tokens[(("direction", "in"), *base)] += float(r["tin"] or 0)
        tokens[(("direction", "out"), *base)] += float(r["tout"] or 0)
    return [*_family("papermind_llm_calls_total", "counter",
                     "Model calls of jobs by role, endpoint and outcome", calls),
            *_family("papermind_llm_tokens_total", "counter",
                     "Tokens of jobs' model calls by direction, role and endpoint", tokens),
            *_histogram_lines("papermind_llm_latency_seconds",
                              "Latency of jobs' model calls by role and endpoint",
                              _llm_histograms(db) if rows else {})]


def _llm_histograms(db: SqlDatabase) -> dict[Labels, _Histogram]:
    cases = ", ".join(f"SUM(CASE WHEN latency_s <= {b} THEN 1 ELSE 0 END) AS b{i}"
                      for i, b in enumerate(LATENCY_BUCKETS))
    out: dict[Labels, _Histogram] = {}
    for r in db.query(f"SELECT role, endpoint, COUNT(*) AS n, SUM(latency_s) AS s, {cases}"
                      " FROM llm_calls GROUP BY role, endpoint"):
        out[(("endpoint", str(r["endpoint"])), ("role", str(r["role"])))] = _Histogram(
            [int(r[f"b{i}"] or 0) for i in range(len(LATENCY_BUCKETS))],
            float(r["s"] or 0.0), int(r["n"]))
    return out


def _family(name: str, kind: str, help_text: str, samples: dict[Labels, float]) -> list[str]:
    return [f"# HELP {name} {help_text}", f"# TYPE {name} {kind}",
            *(f"{name}{_labels(labels)} {_number(value)}" for labels, value in sorted(samples.items()))]


def _counter_lines(name: str, help_text: str, samples: dict[Labels, float]) -> Iterable[str]:
    return _family(name, "counter", help_text, samples)


def _histogram_lines(name: str, help_text: str, hists: dict[Labels, _Histogram]) -> list[str]:
    out = [f"# HELP {name} {help_text}", f"# TYPE {name} histogram"]
    for labels, hist in sorted(hists.items()):
        for bound, n in zip(LATENCY_BUCKETS, hist.buckets, strict=True):
            out.append(f"{name}_bucket{_labels((*labels, ('le', _number(bound))))} {n}")
        out.append(f"{name}_bucket{_labels((*labels, ('le', '+Inf')))} {hist.count}")
        out.append(f"{name}_sum{_labels(labels)} {_number(hist.total)}")
        out.append(f"{name}_count{_labels(labels)} {hist.count}")
    return out


_ESCAPES = re.compile(r'[\\"\n]')


def _labels(labels: Sequence[tuple[str, str]]) -> str:
    if not labels:
        return ""
    escaped = (_ESCAPES.sub(lambda m: {"\\": "\\\\", '"': '\\"', "\n": "\\n"}[m.group(0)], v)
               for _, v in labels)
    return "{" + ",".join(f'{k}="{v}"' for (k, _), v in zip(labels, escaped, strict=True)) + "}"


def _number(value: float) -> str:
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    return repr(float(value)) if value != int(value) else str(int(value))
