"""The QA regression runner: question-set format, scoring, and a scripted run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from papermind.domain import Anchor
from papermind.domain.answer import AnswerSentence, Citation, QAReport
from papermind.domain.evidence import Evidence, Support
from papermind.errors import InputError
from papermind.evaluation.runs.regression import (
    PaperName,
    RegressionQuestion,
    fact_present,
    load_questions,
    run_regression,
    score,
)
from tests.services.test_qa import parts
from tests.workflows.deep_qa.fakes import OFFENSIVE, Library, judge, make_paper

EVALS = Path(__file__).resolve().parents[2] / "evals" / "qa_questions.jsonl"
NAMES = [PaperName("aaa111", "qasper_00.txt", "OLID"), PaperName("bbb222", "qasper_03.txt", "")]


def report(text: str, cited: list[tuple[str, bool]]) -> QAReport:
    citations = [Citation(evidence_id="E1", paper_id=p, evidence=Evidence(
        quote="q", anchor=Anchor(page=1, line_start=1, line_end=1),
        support=Support(verdict="supported" if v else "not_enough", by="checker:m")))
        for p, v in cited]
    return QAReport(kind="cited_qa", question="q", status="answered",
                    sentences=[AnswerSentence(text=text, cites=["E1"], citations=citations,
                                              verified=all(v for _, v in cited))])


def test_the_shipped_question_set_loads() -> None:
    questions = load_questions(EVALS)
    assert len(questions) >= 200
    assert all(q.facts and q.sources for q in questions)
    assert len({q.id for q in questions}) == len(questions)
    assert sum(not q.origin for q in questions) == 10  # the hand-written ones


def test_every_built_question_traces_to_its_source_record(shared_data: Path) -> None:
    data = shared_data
    qasper = [json.loads(line) for line in (data / "qasper_subset" /
                                            "scientific_qa_dev.jsonl").read_text().splitlines()]
    pubmed = json.loads((data / "pubmedqa" / "pqal_dev.json").read_text())
    built = [q for q in load_questions(EVALS) if q.origin]
    for q in built:
        if q.origin["dataset"].startswith("qasper"):
            record = qasper[q.origin["record"]]
            assert record["instructions"][q.origin["question"]] == q.question
            assert record["outputs"][q.origin["question"]].strip() == q.facts[0][0]
            assert q.sources == [f"qasper_{q.origin['record']:02d}"]
        else:
            record = pubmed[q.origin["record"]]
            assert (record["QUESTION"], record["final_decision"]) == (q.question, q.facts[0][0])
    assert len(built) >= 190


def test_bad_question_files(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text('{"id": "a", "question": "x", "facts": ["1"]}\n{"id": "b"}\n')
    with pytest.raises(InputError, match="line 2"):
        load_questions(path)
    path.write_text("# only a comment\n\n")
    with pytest.raises(InputError, match="no questions"):
        load_questions(path)
    with pytest.raises(InputError):
        load_questions(tmp_path / "missing.jsonl")


def test_fact_matching_is_normalised_but_not_partial() -> None:
    assert fact_present(["14,100"], "OLID has 14100 tweets.")
    assert fact_present(["Inception V3"], "an inception-v3 model")
    assert not fact_present(["11"], "It covers 110 languages.")
    assert fact_present(["11", "eleven"], "Eleven languages.")


def test_score_accuracy_and_source_recall() -> None:
    question = RegressionQuestion(id="x", question="q", facts=["14,100", ["230K", "230k"]],
                                  sources=["qasper_00", "qasper_03"])
    scored = score(question, report("OLID has 14,100 tweets.", [("aaa111", True),
                                                               ("bbb222", False)]), NAMES)
    assert scored.accuracy == 0.5 and scored.missing_facts == ["230K"]
    assert scored.verified_accuracy == 0.0  # the sentence has an unverified citation
    assert scored.source_recall == 0.5 and scored.missing_sources == ["qasper_03"]
    perfect = score(question, report("14,100 and 230k", [("aaa111", True), ("bbb222", True)]),
                    NAMES)
    assert (perfect.accuracy, perfect.verified_accuracy, perfect.source_recall) == (1.0, 1.0, 1.0)


async def test_runner_with_the_scripted_model() -> None:
    library = Library()
    paper = library.add(make_paper("olid", OFFENSIVE))
    names = [PaperName(paper.id, "qasper_00.txt", "olid")]
    qa = parts({"distiller": [{"quotes": []}] * 2,
                "answerer": [{"sentences": [{"text": "OLID has 14,100 tweets.",
                                             "cites": ["E1"]}]},
                             {"sentences": [], "insufficient": True}],
                "checker": [judge()]}, library)
    questions = [RegressionQuestion(id="size", question="How many tweets does the dataset "
                                    "contain?", facts=["14,100"], sources=["qasper_00"]),
                 RegressionQuestion(id="gpu", question="Which GPU trained the CNN?",
                                    facts=["V100"], sources=["qasper_00"], papers=["olid"])]
    seen: list[str] = []
    result = await run_regression(qa, questions, names, on_score=lambda s: seen.append(s.id))
    assert seen == ["size", "gpu"]
    size, gpu = result.scores
    assert (size.accuracy, size.source_recall, size.status) == (1.0, 1.0, "answered")
    assert (gpu.accuracy, gpu.source_recall, gpu.status) == (0.0, 0.0, "insufficient_evidence")
    assert result.accuracy == 0.5 and result.to_dict()["questions"] == 2
