"""The eval harness end to end against the local mock OpenAI server: runs stored with their
settings and items, reports written, budgets, resume, comparisons and regression flags."""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from papermind.config import EndpointSettings, LLMSettings, Settings
from papermind.errors import InputError
from papermind.evaluation.runs.jobs import EvalRequest, compare, evaluate, plan
from papermind.evaluation.runs.qa import regressions
from papermind.evaluation.runs.store import EvalItem, EvalRunStore
from papermind.llm.testing import MockOpenAIServer
from papermind.services.container import Container
from tests.support.eval_data import write_questions, write_shared_data

FIRST = "How many tweets does OLID contain?"


@pytest.fixture
def mock() -> Iterator[MockOpenAIServer]:
    with MockOpenAIServer() as server:
        yield server


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return write_shared_data(tmp_path / "shared")


def _container(home: Path, base_url: str, language: str = "auto") -> Container:
    endpoint = EndpointSettings(base_url=base_url, model="mock-model", api_key="k", timeout_s=30)
    return Container(Settings(home=home, llm=LLMSettings(endpoints={"default": endpoint},
                                                         prices={"mock-model": (1.0, 2.0)}),
                              search={"embedder": "hashing"},  # type: ignore[arg-type]
                              language=language))


async def test_qa_run_is_stored_with_settings_items_and_report(
        home: Path, data: Path, mock: MockOpenAIServer) -> None:
    request = EvalRequest("qa", data=data, dataset="qasper")
    with _container(home, mock.base_url) as box:
        estimate = plan(box, request)
        outcome = await evaluate(box, request)
        again = await evaluate(box, request)
    assert estimate.items == 5 and estimate.tokens > 0 and estimate.cost_usd
    # three answerable questions, and per paper one borrowed from the next that it cannot answer
    assert [i.item_id for i in outcome.items] == [
        "qasper-00-00", "qasper-00-01", "qasper-00-unanswerable", "qasper-01-00",
        "qasper-01-unanswerable"]
    settings = outcome.run.settings
    assert settings["models"]["answerer"] == "mock-model" and settings["dataset"] == "qasper"
    assert settings["endpoints"]["answerer"]["base_url"] == mock.base_url
    assert "workflows/review/prompts/meta.md" in settings["prompts"]
    assert all(len(digest) == 12 for digest in settings["prompts"].values())
    assert settings["code"].startswith("0.1.0")
    metrics = outcome.run.summary["metrics"]
    assert {"f1", "answered", "abstained"} <= set(metrics)
    assert outcome.run.status == "finished" and outcome.items[0].tokens > 0
    page = outcome.report.read_text()  # type: ignore[union-attr]
    assert "qa evaluation" in page and "<svg" in page and "qasper-00-00" in page
    assert again.flags == []  # same model, same answers: no regression


async def test_review_run_with_planted_flaws(home: Path, data: Path,
                                             mock: MockOpenAIServer) -> None:
    request = EvalRequest("review", data=data, flaws=True)
    with _container(home, mock.base_url) as box:
        outcome = await evaluate(box, request)
    summary = outcome.run.summary
    assert summary["papers"] == 2 and set(summary["metrics"]) == {
        "decision_accuracy", "balanced_accuracy", "auc", "pearson", "spearman"}
    assert summary["roles"] and any(p["value"] == "0.82" for p in summary["published"])
    flaws = outcome.items[0].result["flaws"]
    assert flaws and all({"kind", "anchor", "code", "panel"} <= set(f) for f in flaws)
    assert summary["flaws"]["planted"] == sum(len(i.result["flaws"]) for i in outcome.items)
    caught = {f["kind"]: f["code"] for i in outcome.items for f in i.result["flaws"]}
    assert caught.get("missing_citation") and caught.get("reviewer_instruction")
    page = outcome.report.read_text()  # type: ignore[union-attr]
    assert "theirs" in page and "Planted flaws" in page and page.count("<svg") == 3


async def test_the_report_speaks_the_language_setting_or_the_flag(
        home: Path, data: Path, mock: MockOpenAIServer, tmp_path: Path) -> None:
    request = EvalRequest("qa", data=data, dataset="regression",
                          questions=write_questions(tmp_path / "q.jsonl"))
    with _container(home, mock.base_url, language="zh") as box:
        by_setting = await evaluate(box, request)
        by_flag = await evaluate(box, EvalRequest(**{**vars(request), "language": "en"}))
        english = by_flag.report.read_text()  # type: ignore[union-attr]
        resumed = await evaluate(box, EvalRequest("qa", language="zh"), resume=by_flag.run.id)
    page = by_setting.report.read_text()  # type: ignore[union-attr]
    assert "问答评测" in page and "<th>指标</th>" in page and "事实准确率" in page
    assert "<th>metric</th>" not in page and "fact accuracy" not in page
    assert "qa evaluation" in english and "<th>metric</th>" in english and "指标" not in english
    # resuming (here: a finished run) rewrites its report in the language asked for now
    assert resumed.report == by_flag.report and "问答评测" in resumed.report.read_text()  # type: ignore[union-attr]


async def test_budget_stops_the_run_and_resume_finishes_it(
        home: Path, data: Path, mock: MockOpenAIServer, tmp_path: Path) -> None:
    request = EvalRequest("qa", data=data, dataset="regression",
                          questions=write_questions(tmp_path / "q.jsonl"))
    with _container(home, mock.base_url) as box:
        first = await evaluate(box, request, budget_tokens=1)
        calls = mock.request_count
        done = await evaluate(box, request, resume=first.run.id[:12])
    assert first.run.status == "stopped" and first.ran == 1 and "budget" in first.stopped
    assert done.run.id == first.run.id and done.ran == 1 and done.run.status == "finished"
    assert [i.item_id for i in done.items] == ["olid-size", "ebook-vocab"]
    assert mock.request_count > calls
    assert done.items[0].result["scores"]["fact_accuracy"] in (0.0, 1.0)


def test_compare_flags_a_planted_ten_point_drop(home: Path) -> None:
    with Container(Settings(home=home)) as box:
        store = EvalRunStore(box.db)
        for run, correct in (("base", 75), ("worse", 65)):  # 75/100 right, then 65/100
            store.create(run, "qa", {"dataset": "qasper"})
            for k in range(100):
                store.add_item(run, EvalItem(f"q{k}", {"scores": {
                    "f1": 1.0 if k < correct else 0.0, "answered": 1.0}}))
        lines, flagged = compare(box, "base", "worse")
        same, none = compare(box, "base", "base")
        with pytest.raises(InputError):
            store.create("other", "review", {})
            compare(box, "base", "other")
    assert flagged and not none
    f1 = next(line for line in lines if " f1 " in line)
    assert f1.startswith("DROP") and "-0.100" in f1 and "*" in f1  # 10 points, p < 0.05
    assert "flagged: f1" in lines[-1]


def test_regression_line_for_a_drop_of_more_than_five_points() -> None:
    before = {"metrics": {"f1": {"value": 0.60}, "abstained": {"value": 0.5}}}
    assert regressions({"metrics": {"f1": {"value": 0.56}}}, before) == []
    lines = regressions({"metrics": {"f1": {"value": 0.50}, "abstained": {"value": math.nan}}},
                        before)
    assert lines == ["REGRESSION f1: 0.600 -> 0.500 (-10.0 points; limit 5)"]
    assert regressions({"metrics": {}}, None) == []


def test_bad_requests_are_input_errors(home: Path, data: Path) -> None:
    with Container(Settings(home=home)) as box:
        with pytest.raises(InputError, match="unknown QA dataset"):
            plan(box, EvalRequest("qa", data=data, dataset="squad"))
        with pytest.raises(InputError, match="needs --questions"):
            plan(box, EvalRequest("qa", data=data, dataset="regression"))
        with pytest.raises(InputError, match="ratings_dev.tsv"):
            plan(box, EvalRequest("review", data=data / "pubmedqa"))
    assert json.loads((data / "pubmedqa" / "pqal_dev.json").read_text())["111"]


def test_a_run_resumes_after_sigkill(home: Path, data: Path, tmp_path: Path) -> None:
    """A real `papermind eval qa` process is killed after its first stored item; resuming
    finishes the run with every item once and the first one not asked again."""
    questions = tmp_path / "q.jsonl"
    write_questions(questions)
    with questions.open("a") as handle:
        for k in range(3):
            handle.write(json.dumps({"id": f"olid-{k}", "question": f"Which model is best ({k})?",
                                     "facts": ["CNN"], "sources": ["qasper_00"]}) + "\n")
    with MockOpenAIServer(latency_s=0.6) as slow:
        env = {**os.environ, "PAPERMIND_HOME": str(home),
               "PAPERMIND_LLM__ENDPOINTS__DEFAULT__BASE_URL": slow.base_url,
               "PAPERMIND_LLM__ENDPOINTS__DEFAULT__MODEL": "mock-model",
               "PAPERMIND_LLM__ENDPOINTS__DEFAULT__API_KEY": "k",
               "PAPERMIND_SEARCH__EMBEDDER": "hashing",
               "PYTHONPATH": os.pathsep.join(sys.path)}
        process = subprocess.Popen(
            [sys.executable, "-c", "from papermind.cli.app import main; main()", "eval", "qa",
             "--data", str(data), "--dataset", "regression", "--questions", str(questions)],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            run_id = _wait_for_items(home / "library.sqlite3", process)
            os.kill(process.pid, signal.SIGKILL)
        finally:
            process.wait(timeout=60)
        with _container(home, slow.base_url) as box:
            before = EvalRunStore(box.db).items(run_id)
            asked = [r for r in slow.requests if FIRST in json.dumps(r)]
            outcome = await_run(evaluate(box, EvalRequest("qa"), resume=run_id))
    ids = [i.item_id for i in outcome.items]
    assert 1 <= len(before) < 5 and outcome.run.status == "finished" and asked
    assert ids == ["olid-size", "ebook-vocab", "olid-0", "olid-1", "olid-2"]  # each once
    assert outcome.ran == 5 - len(before)
    assert asked == [r for r in slow.requests if FIRST in json.dumps(r)]  # not asked again


def _wait_for_items(db: Path, process: subprocess.Popen[bytes], timeout: float = 600) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, "the eval process ended before it could be killed"
        if db.exists():
            with contextlib.closing(sqlite3.connect(db, timeout=5)) as conn:
                try:
                    row = conn.execute("SELECT run_id FROM eval_items LIMIT 1").fetchone()
                except sqlite3.OperationalError:
                    row = None
            if row:
                return str(row[0])
        time.sleep(0.2)
    raise AssertionError("no item was stored in time")


def await_run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)
