"""Which planted flaws code catches alone and which a panel names (10 dev papers x 5)."""

from __future__ import annotations

import random
from pathlib import Path

from papermind.domain.review import ReportComment, ReviewMetrics, ReviewReport
from papermind.evaluation.perturb.flaws import KINDS, plant_flaws
from papermind.evaluation.runs.flaw_catches import code_catches, code_findings, panel_catches
from papermind.evaluation.runs.review import flaw_recall, plant_paper
from papermind.ingest import parse_bytes
from tests.support.eval_data import PAPER


def _comment(content: str, page: int, line: int) -> ReportComment:
    return ReportComment(message_id="m1", sender="experiment_reviewer", kind="issue", round=1,
                         target="paper", content=content, confidence=0.8, weight=0.8,
                         found=True, support="supported", verified=True,
                         evidence=[{"anchor": {"page": page, "line_start": line,
                                               "line_end": line}}])


def test_code_and_panel_catches_on_a_small_paper() -> None:
    clean = parse_bytes(PAPER.encode(), "w.md")
    flawed = plant_flaws(PAPER, clean, KINDS, random.Random(3))
    caught = code_catches(parse_bytes(flawed.text.encode(), "w.md"), clean, flawed.flaws)
    kinds = {f.id: f.kind for f in flawed.flaws}
    assert {kinds[i] for i, hit in caught.items() if hit} >= {
        "number_vs_table", "baseline_not_beaten", "missing_citation", "wrong_reference",
        "reviewer_instruction"}
    # 'The losses in Table 1 hold...': a swapped word no table row or number contradicts
    assert not any(caught[i] for i in caught if kinds[i] == "claim_contradicts")
    citation = next(f for f in flawed.flaws if f.kind == "missing_citation")
    anchor = citation.anchor
    report = ReviewReport(paper_id="p", title="t", metrics=ReviewMetrics(
        issue_overlap=0, independence=1), comments=[
        _comment("This citation is not in the bibliography.", anchor.page, anchor.line_start),
        _comment("The missing citation again.", anchor.page, anchor.line_start + 9),
        _comment("Nice writing.", anchor.page, anchor.line_start)])
    named = panel_catches(report, flawed.flaws)
    assert named[citation.id] and sum(named.values()) == 1


def test_ten_dev_papers_five_flaws_each_recall_by_code(shared_data: Path) -> None:
    papers = ["4Muj-t_4o4", "4tOrvK-fFOR", "AJAR-JgNw__", "EcGGFkNTxdJ", "Eot1M5o2Zy",
              "Fj1Tpym9KxH", "Jjcv9MTqhcq", "OWZVD-l-ZrC", "Ve0Wth3ptT_", "W9G_ImpHlQd"]
    flaws = []
    for index, name in enumerate(papers):
        path = shared_data / "iclr_bench" / "papers" / f"{name}.txt"
        flaws += plant_paper(path.read_text(encoding="utf-8"), path.name, index=index)["flaws"]
    recall = flaw_recall(flaws)
    by_kind = recall["by_kind"]
    # five per paper where the paper has sites for five kinds (47 of 50 here)
    assert recall["planted"] >= 45 and all(f["anchor"]["line_start"] > 0 for f in flaws)
    assert by_kind["wrong_reference"]["code"] == 1.0
    assert by_kind["reviewer_instruction"]["code"] == 1.0
    assert by_kind["missing_citation"]["code"] >= 0.6
    assert by_kind["missing_citation"]["code"] == 1.0  # planted in the text, not the bibliography
    assert by_kind["number_vs_table"]["planted"] >= 7 and by_kind["number_vs_table"]["code"] >= 0.75
    assert by_kind["baseline_not_beaten"]["code"] == 1.0
    assert by_kind["claim_contradicts"]["code"] <= 0.2  # only those comparing rows or numbers


def test_code_catches_a_stated_cell_and_a_claim_the_table_contradicts() -> None:
    text = PAPER.replace("The widget network reaches 78.4 accuracy, against 71.2 for the baseline.",
                         "The widget network is the stronger of the two on this benchmark data.")
    clean = parse_bytes(text.encode(), "w.md")
    for seed in range(3):
        flawed = plant_flaws(text, clean, ["number_vs_table", "baseline_not_beaten",
                                           "claim_contradicts"], random.Random(seed))
        caught = code_catches(parse_bytes(flawed.text.encode(), "w.md"), clean, flawed.flaws)
        assert {f.kind for f in flawed.flaws if caught[f.id]} >= {"number_vs_table",
                                                                  "baseline_not_beaten"}
    assert [f.kind for f in code_findings(clean)] == []  # the clean paper: no false alarm


def test_a_label_below_the_highest_parsed_one_is_a_parse_miss_not_a_dangling_reference() -> None:
    text = PAPER.replace("Table 1: Accuracy", "Table 3: Accuracy").replace(
        "The gains in Table 1 hold", "The gains in Table 2 hold").replace(
        "We also report in Table 1", "We also report in Table 9")
    dangling = [f.text for f in code_findings(parse_bytes(text.encode(), "w.md"))
                if f.kind == "dangling_label"]
    assert dangling == ["Table 9"]  # 'Table 2' sits below the parsed Table 3; 'Table 1' too
