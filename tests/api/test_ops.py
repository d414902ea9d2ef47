"""Operating the server: /metrics in the Prometheus text format that moves when a job runs,
and /readyz that names the dependency that is down."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from papermind.api.app import create_app
from papermind.config import EndpointSettings, LLMSettings, load_settings
from papermind.llm.testing import fake_gateway
from papermind.services.container import Container
from papermind.services.metrics import refusal_reason
from tests.api.server import serve, wait_for
from tests.support.reading_script import (
    PAPER_MD,
    checker_answer,
    questions_answer,
    reader_answer,
)

_NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
_SAMPLE = re.compile(rf"^(?P<name>{_NAME})(?:\{{(?P<labels>.*)\}})? (?P<value>\S+)$")
_LABEL = re.compile(r'\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\["\\n])*)"\s*(,|$)')
Sample = tuple[str, frozenset[tuple[str, str]], float]


def parse_prometheus(text: str) -> tuple[dict[str, str], list[Sample]]:
    """(type by family, samples) of an exposition; raises on anything the format forbids."""
    types: dict[str, str] = {}
    samples: list[Sample] = []
    assert text.endswith("\n"), "the exposition must end with a line feed"
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ", 3)
            assert re.fullmatch(_NAME, name) and kind in {"counter", "gauge", "histogram",
                                                          "summary", "untyped"}, line
            assert name not in types, f"two TYPE lines for {name}"
            types[name] = kind
        elif line.startswith("#") or not line.strip():
            continue
        else:
            match = _SAMPLE.match(line)
            assert match, f"not a sample line: {line!r}"
            labels, rest = [], match.group("labels") or ""
            while rest:
                label = _LABEL.match(rest)
                assert label, f"bad labels in {line!r}"
                labels.append((label.group(1), label.group(2)))
                rest = rest[label.end():]
            value = float(match.group("value").replace("+Inf", "inf"))
            family = re.sub(r"_(bucket|sum|count)$", "", match.group("name"))
            assert family in types or match.group("name") in types, f"no TYPE before {line!r}"
            samples.append((match.group("name"), frozenset(labels), value))
    _check_histograms(types, samples)
    return types, samples


def _check_histograms(types: dict[str, str], samples: list[Sample]) -> None:
    for family in (f for f, kind in types.items() if kind == "histogram"):
        series: dict[frozenset[tuple[str, str]], list[tuple[float, float]]] = {}
        counts = {labels: v for n, labels, v in samples if n == f"{family}_count"}
        for name, labels, value in samples:
            if name == f"{family}_bucket":
                le = dict(labels)["le"]
                rest = frozenset(x for x in labels if x[0] != "le")
                series.setdefault(rest, []).append((float(le.replace("+Inf", "inf")), value))
        for rest, buckets in series.items():
            values = [v for _, v in sorted(buckets)]
            assert values == sorted(values), f"{family} buckets must not decrease"
            assert sorted(buckets)[-1][0] == math.inf and values[-1] == counts[rest]


def value(samples: list[Sample], name: str, **labels: str) -> float:
    wanted = set(labels.items())
    return sum(v for n, ls, v in samples if n == name and wanted <= ls)


@pytest.fixture
def client(home: Path) -> Iterator[httpx.Client]:
    box = Container(load_settings(home))  # the model's calls are stored in its database
    gateway = fake_gateway({"reader": [reader_answer()], "checker": [checker_answer("high")],
                            "questioner": [questions_answer(["m1"])]}, db=box.db, cache=False)
    with serve(create_app(box.settings, container=box, gateway=gateway)) as base, \
            httpx.Client(base_url=base, timeout=30) as http:
        yield http


def test_metrics_parse_and_move_when_a_job_runs(client: httpx.Client) -> None:
    before = client.get("/metrics")
    assert before.status_code == 200
    assert before.headers["content-type"].startswith("text/plain; version=0.0.4")
    types, samples = parse_prometheus(before.text)
    assert types["papermind_jobs"] == "gauge" and types["papermind_queue_depth"] == "gauge"
    assert value(samples, "papermind_jobs", kind="reading", state="completed") == 0
    paper = client.post("/api/papers", files={"file": ("p.md", PAPER_MD.encode())}).json()["id"]
    assert client.post("/api/papers", files={"file": ("x.pdf", b"%PDF-1.7 garbage")}) \
        .status_code in (400, 413, 415, 422)
    client.get("/api/search", params={"q": "routing"})
    job = wait_for(client, client.post("/api/jobs", json={"kind": "reading",
                                                          "paper_id": paper}).json()["id"])
    assert job["status"] == "completed", job
    types, samples = parse_prometheus(client.get("/metrics").text)
    assert value(samples, "papermind_jobs", kind="reading", state="completed") == 1
    assert value(samples, "papermind_queue_depth") == 0
    assert value(samples, "papermind_llm_calls_total", role="reader") >= 1
    assert value(samples, "papermind_llm_tokens_total", direction="in") > 0
    assert value(samples, "papermind_llm_latency_seconds_count", role="reader") >= 1
    assert value(samples, "papermind_search_latency_seconds_count") >= 1
    assert value(samples, "papermind_parse_refusals_total") >= 1
    assert types["papermind_llm_latency_seconds"] == "histogram"


def test_refusal_reasons_are_a_small_fixed_set() -> None:
    assert refusal_reason("a.pdf is an encrypted (password-protected) PDF") == "encrypted"
    assert refusal_reason("b.pdf has 900 pages; the limit is 500") == "too_many_pages"
    assert refusal_reason("c.pdf: the parser crashed (signal 6)") == "parser_crash"
    assert refusal_reason("d.pdf: parsing reached its memory limit") == "memory_limit"
    assert refusal_reason("something nobody foresaw") == "other"


def test_readyz_names_the_dependency_that_is_down(home: Path) -> None:
    with serve(create_app(load_settings(home))) as base, httpx.Client(base_url=base) as http:
        ready = http.get("/readyz")
        assert ready.status_code == 200 and ready.json()["status"] == "ready"
        assert set(ready.json()["checks"]) == {"database", "jobs"}
    dead = EndpointSettings(provider="openai", base_url="http://127.0.0.1:9/v1", model="m")
    settings = load_settings(home).model_copy(update={"llm": LLMSettings(
        endpoints={"lab": dead})})
    with serve(create_app(settings)) as base, httpx.Client(base_url=base) as http:
        down = http.get("/readyz")
        assert down.status_code == 503 and down.json()["down"] == ["model:lab"]
        assert down.json()["checks"]["database"]["ok"] is True
        assert "unreachable" in down.json()["checks"]["model:lab"]["detail"]
