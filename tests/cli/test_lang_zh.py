"""`--lang zh` with scripted models: Chinese report text, English quotes verbatim with valid
anchors, the language rule in every prompt, and a Chinese credibility line parsed."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from papermind.llm.testing import MockOpenAIServer, fake_gateway
from papermind.services import qa, reading
from tests.cli.evidence_check import assert_evidence_anchored
from tests.cli.test_ask import PAPERS
from tests.support.cli import CliRunner
from tests.workflows.deep_qa.fakes import judge
from tests.workflows.deep_reading.echo_model import echo_questioner, echo_reader
from tests.workflows.review.panel_mock import panel_responder
from tests.workflows.review.paper_text import write_paper

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "example_paper.pdf"
RULE = "Output language: write every explanation"
HAN = re.compile(r"[\u4e00-\u9fff]")


def chinese_reader(messages: list[Any]) -> dict[str, Any]:
    """The echo reader's points (real line ids), explained in Chinese."""
    draft = echo_reader()(messages)
    for point in draft["method"]:
        point["point"] = "该方法的要点见所引行。"
    draft["derivation"][0]["states"] = "这一步由定义直接得到。"
    draft["results"][0]["finding"] = "结果支持论文的主要结论。"
    return draft


def chinese_checker(messages: list[Any]) -> dict[str, Any]:
    ids = re.findall(r"\[C(\d+)\] CLAIM", "\n".join(str(m.content) for m in messages))
    return {"verdicts": [{"id": f"C{i}", "verdict": "支持", "reason": "所引原文给出了这一点"}
                         for i in ids], "credibility": "[可信度: 低]"}


def chinese_questioner(messages: list[Any]) -> dict[str, Any]:
    draft = echo_questioner(messages)
    for q in draft["questions"]:
        q["question"], q["why"] = "这一结论在更大的数据集上还成立吗？", "检验泛化能力"
    return draft


def test_read_in_chinese(cli: CliRunner, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                         home: Path) -> None:
    if not EXAMPLE.exists():
        pytest.skip("examples/example_paper.pdf not built")
    gw = fake_gateway({"reader": [chinese_reader, chinese_reader],
                       "checker": [chinese_checker, chinese_checker],
                       "questioner": [chinese_questioner]})
    monkeypatch.setattr(reading, "gateway_for", lambda container: gw)
    out = tmp_path / "out"
    result = cli("read", EXAMPLE, "--lang", "zh", "--out", out, "--json")
    assert result.code == 0, result.err
    report = result.json()
    assert report["language"] == "zh"
    assert all(RULE in c.text and "Chinese" in c.text for c in gw.calls_for())
    # points found and judged '支持' (supported): the Chinese ones count (across languages the
    # relatedness floor compares numbers and Latin names only); the echo reader's English
    # extras ('follows from: the definitions', datasets 'D1') are not in their lines and are
    # lowered by code; credibility is low either way
    verified = [p for p in report["points"] if p["status"] == "verified"]
    assert verified and all(HAN.search(p["text"]) for p in verified)
    assert report["credibility"] == "low" and report["rewrites"] == 1
    assert assert_evidence_anchored(report, home) == report["verification"]["total"]
    quotes = [e["text"] for p in report["points"] for e in p["evidence"]]
    assert quotes and not any(HAN.search(q) for q in quotes)  # the paper's English, verbatim
    markdown = (out / "report.md").read_text(encoding="utf-8")
    for text in ("# 深度阅读：", "总体可信度", "**低**", "## 方法原理", "## 值得进一步思考的问题",
                 "该方法的要点见所引行。", "这一结论在更大的数据集上还成立吗？"):
        assert text in markdown
    assert json.loads((out / "report.json").read_text(encoding="utf-8"))["language"] == "zh"


def _in_chinese(reply: Any) -> Any:
    """The panel's replies with their free text written in Chinese (ids, lines kept)."""
    if isinstance(reply, dict):
        return {k: ("中文：" + v if k in ("summary", "content", "reason", "action") and
                    isinstance(v, str) else _in_chinese(v)) for k, v in reply.items()}
    return [_in_chinese(v) for v in reply] if isinstance(reply, list) else reply


def test_review_in_chinese(cli: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with MockOpenAIServer(responder=lambda r: _in_chinese(panel_responder(r))) as mock:
        monkeypatch.setenv("PAPERMIND_LLM__ENDPOINTS__DEFAULT__BASE_URL", mock.base_url)
        monkeypatch.setenv("PAPERMIND_LLM__ENDPOINTS__DEFAULT__MODEL", "mock-model")
        monkeypatch.setenv("PAPERMIND_LLM__ENDPOINTS__DEFAULT__API_KEY", "k")
        result = cli("review", write_paper(tmp_path), "--lang", "zh", "--reviewers", "minimal",
                     "--json", "--out", tmp_path / "out")
        systems = [m["content"] for r in mock.requests for m in r["messages"]
                   if m["role"] == "system"]
    assert result.code == 0, result.err
    data = result.json()
    assert data["language"] == "zh"
    assert systems and all(RULE in s and "Chinese" in s for s in systems)
    assert data["verification"]["share_found"] == 1.0
    assert all(c["content"].startswith("中文：") for c in data["comments"])
    for comment in data["comments"]:
        for e in comment["evidence"]:
            assert e["found"] and not HAN.search(e["text"])  # English lines, verbatim
    markdown = (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    assert "# 预审稿：" in markdown and "## 评分" in markdown and "## 各审稿人的意见" in markdown


def test_a_chinese_question_is_answered_in_chinese_from_an_english_paper(
        cli: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, text in PAPERS.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    added = cli("add", tmp_path / "olid.txt", "--json").json()

    def answerer(messages: list[Any]) -> dict[str, Any]:
        text = "\n".join(str(m.content) for m in messages)
        ids = re.findall(r"^\[(E\d+)\].*14,100", text, re.MULTILINE)
        return {"sentences": [{"text": "该数据集包含 14,100 条推文。", "cites": ids[:1]}]}

    gw = fake_gateway({"planner": [{"related_terms": ["dataset size", "tweets"]}],
                       "distiller": [{"quotes": []}], "answerer": [answerer],
                       "checker": [judge()]})
    monkeypatch.setattr(qa, "gateway_for", lambda container: gw)
    result = cli("ask", "这个数据集包含多少条推文？", "--paper", added[0]["paper_id"][:10], "--json")
    assert result.code == 0, result.err
    report = result.json()
    assert report["language"] == "zh"  # auto: the question's language
    [strategy] = report["strategies"]  # the question translated into English search terms
    assert strategy["related_terms"] == ["dataset size", "tweets"]
    assert strategy["query"] == "这个数据集包含多少条推文？ dataset size tweets"
    assert all(RULE in c.text for c in gw.calls_for())
    assert report["sentences"], (report["notes"], report["evidence"], report["status"])
    [sentence] = report["sentences"]
    citation = sentence["citations"][0]
    assert sentence["text"] == "该数据集包含 14,100 条推文。" and citation["verified"]
    assert "14,100 tweets" in citation["text"] and citation["anchor"]["page"] == 1


def test_a_bad_language_code_is_a_usage_error(cli: CliRunner, tmp_path: Path) -> None:
    result = cli("ask", "What?", "--lang", "chinese please")
    assert result.code != 0 and "not a language code" in result.err
