"""`papermind eval ... --lang`: the HTML report's labels in the language asked for."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from papermind.llm.testing import MockOpenAIServer
from tests.support.cli import CliRunner
from tests.support.eval_data import write_questions, write_shared_data


@pytest.fixture
def endpoint(monkeypatch: pytest.MonkeyPatch) -> Iterator[MockOpenAIServer]:
    with MockOpenAIServer() as mock:
        monkeypatch.setenv("PAPERMIND_LLM__ENDPOINTS__DEFAULT__BASE_URL", mock.base_url)
        monkeypatch.setenv("PAPERMIND_LLM__ENDPOINTS__DEFAULT__MODEL", "mock-model")
        monkeypatch.setenv("PAPERMIND_LLM__ENDPOINTS__DEFAULT__API_KEY", "k")
        yield mock


def test_eval_qa_lang_zh_writes_a_chinese_report(cli: CliRunner, tmp_path: Path,
                                                 endpoint: MockOpenAIServer) -> None:
    data = write_shared_data(tmp_path / "shared")
    args = ["eval", "qa", "--data", data, "--dataset", "regression", "--questions",
            write_questions(tmp_path / "q.jsonl"), "--json"]
    chinese = cli(*args, "--lang", "zh")
    assert chinese.code == 0, chinese.err
    page = Path(json.loads(chinese.out)["report"]).read_text(encoding="utf-8")
    assert "<html lang='zh'>" in page and "问答评测" in page and "<th>指标</th>" in page
    english = cli(*args)  # the 'language' setting's default, auto: English for a report
    assert "<th>metric</th>" in Path(english.json()["report"]).read_text(encoding="utf-8")


def test_eval_lang_rejects_a_code_that_is_no_language(cli: CliRunner, tmp_path: Path,
                                                      endpoint: MockOpenAIServer) -> None:
    data = write_shared_data(tmp_path / "shared")
    result = cli("eval", "reading", "--data", data, "--lang", "xx-not-a-language")
    assert result.code != 0 and "unknown language code" in result.err + result.out
