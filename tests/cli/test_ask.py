"""`papermind ask` end to end: real library, search and grounding; scripted model."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from papermind.llm.testing import FakeGateway, fake_gateway
from papermind.services import qa
from tests.support.cli import CliRunner
from tests.workflows.deep_qa.fakes import judge, or_judge

PAPERS = {
    "olid.txt": "OLID: offensive tweets\n\nIntroduction\n\nWe present OLID, a dataset of English tweets for offensive "
                "language identification.\n\nThe dataset contains 14,100 tweets and is released "
                "freely to the research community.\n\nWe compare an SVM, a BiLSTM and a CNN.\n",
    "recipes.txt": "Personalized recipes\n\nIntroduction\n\nWe collect a novel dataset of 230K+ recipe texts and 1M+ "
                   "user interactions from Food.com.\n\nOur model personalizes recipe generation."
                   "\n",
}


def cite_first_with(fact: str) -> Any:
    """An answerer that cites the first evidence line of its prompt mentioning ``fact``."""
    def respond(messages: list[Any]) -> dict[str, Any]:
        text = "\n".join(str(m.content) for m in messages)
        ids = re.findall(r"^\[(E\d+)\].*" + re.escape(fact), text, re.MULTILINE)
        if not ids:
            return {"sentences": [], "insufficient": True}
        return {"sentences": [{"text": f"The dataset contains {fact} tweets.", "cites": ids[:1]}]}
    return respond


@pytest.fixture
def library(cli: CliRunner, tmp_path: Path) -> dict[str, str]:
    for name, text in PAPERS.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    result = cli("add", tmp_path / "olid.txt", tmp_path / "recipes.txt", "--json")
    assert result.code == 0, result.err
    return {Path(r["path"]).name: r["paper_id"] for r in result.json()}


def use(monkeypatch: pytest.MonkeyPatch, script: dict[str, Any]) -> FakeGateway:
    gateway = fake_gateway(script)
    monkeypatch.setattr(qa, "gateway_for", lambda container: gateway)
    return gateway


def test_single_pass_answer_with_json_and_reports(cli: CliRunner, library: dict[str, str],
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    use(monkeypatch, {"distiller": [{"quotes": []}], "answerer": [cite_first_with("14,100")],
                      "checker": [judge()]})
    out = tmp_path / "out"
    result = cli("ask", "How many tweets does the dataset contain?", "--paper",
                 library["olid.txt"][:10], "--json", "--out", out)
    assert result.code == 0, result.err
    report = result.json()
    assert report["kind"] == "cited_qa" and report["status"] == "answered"
    assert report["paper_ids"] == [library["olid.txt"]]
    [sentence] = report["sentences"]
    citation = sentence["citations"][0]
    assert citation["verified"] and citation["anchor"]["page"] == 1
    assert "14,100" in citation["text"] and citation["support"]["by"] == "checker:scripted"
    for item in report["evidence"]:
        assert {"quote", "found", "verified", "anchor", "support"} <= set(item)
        assert item["found"] == (item["anchor"] is not None)
    assert report["verification"]["total"] == 1 and report["verification"]["share_verified"] == 1
    assert "done retrieve" in result.err and "done verify_citations" in result.err
    assert sorted(p.name for p in out.iterdir()) == ["report.html", "report.json", "report.md"]
    assert json.loads((out / "report.json").read_text())["status"] == "answered"
    assert 'class="cite verified"' in (out / "report.html").read_text()


def test_deep_answer_prints_text(cli: CliRunner, library: dict[str, str],
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    use(monkeypatch, {
        "planner": [{"tasks": [{"id": "t1", "question": "How many tweets are in OLID?"}]},
                    {"related_terms": ["dataset size"]}],
        "distiller": [{"quotes": []}],
        "checker": [{"sufficient": True}, or_judge({"pairs": []}), judge()],
        "answerer": [cite_first_with("14,100")]})
    result = cli("ask", "How big is the OLID tweet dataset?", "--deep")
    assert result.code == 0, result.err
    assert "The dataset contains 14,100 tweets." in result.out
    assert "citations 1: found 1, supported 1" in result.out
    assert "done plan" in result.err and "done assess_sufficiency" in result.err


def test_cannot_answer_is_said_plainly(cli: CliRunner, library: dict[str, str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    use(monkeypatch, {"distiller": [{"quotes": []}],
                      "answerer": [{"sentences": [], "insufficient": True}]})
    result = cli("ask", "Which optimizer trained the recipe model?", "--paper",
                 library["recipes.txt"])
    assert result.code == 0, result.err
    assert "INSUFFICIENT EVIDENCE" in result.out


def test_bad_input_exit_codes(cli: CliRunner, library: dict[str, str],
                              monkeypatch: pytest.MonkeyPatch) -> None:
    use(monkeypatch, {})
    assert cli("ask", "   ").code == 2
    missing = cli("ask", "What?", "--paper", "ffffffff")
    assert missing.code == 3 and "no paper" in missing.err


def test_off_topic_answer_with_real_quotes_is_not_shown_as_verified(
        cli: CliRunner, library: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The issue's case: 'population of Tokyo' answered with real quotes from NLP papers."""
    def tokyo(messages: list[Any]) -> dict[str, Any]:
        text = "\n".join(str(m.content) for m in messages)
        ids = re.findall(r"^\[(E\d+)\]", text, re.MULTILINE)[:3]
        return {"sentences": [{"text": f"Tokyo has a large population ({n}).", "cites": [i]}
                              for n, i in enumerate(ids, 1)]}
    def real_quote(messages: list[Any]) -> dict[str, Any]:
        """Cites the first line of passage 1 by its line id."""
        text = "\n".join(str(m.content) for m in messages)
        first = re.search(r"Passage 1:\n\[p\.(\d+)\]\n(?:\.\.\.\n)?(\d+) ", text)
        return {"quotes": [{"passage": 1, "lines": f"{first.group(1)}:{first.group(2)}"}]
                if first else []}
    use(monkeypatch, {"distiller": [real_quote], "answerer": [tokyo],
                      "checker": [judge("not_enough", "the text does not mention Tokyo")]})
    result = cli("ask", "What is the population of Tokyo?")
    assert result.code == 0, result.err
    out = result.out
    assert "INSUFFICIENT EVIDENCE" in out and "Evidence found" in out
    assert re.search(r"citations [1-9]\d*: found [1-9]\d*, supported 0", out), out
    assert "citations verified" not in out and " verified" not in out
    assert "[E1]" in out.split("Evidence found", 1)[1]  # the evidence found is listed
    assert out.count("dropped (its citations do not support it") >= 1
