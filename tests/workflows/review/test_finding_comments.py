"""The offline review's comments: kept when they pass code's checks; otherwise each finding
says why, and the model is not run for findings no comment could pass."""

from __future__ import annotations

from papermind.domain.check import CheckFinding, CheckReport
from papermind.llm.testing import fake_gateway
from papermind.workflows.review.finding_comments import NOT_RUN, comment_findings

RICH = CheckFinding(kind="citation_without_entry", severity="high", aspect="citations",
                    message="The citation [12] has no entry in the bibliography.",
                    text="as shown by prior retrieval work [12]",
                    fix="Add the missing bibliography entry for [12].")
THIN = CheckFinding(kind="venue", severity="low", aspect="venue", message="Too long.")


async def test_a_dropped_comment_says_why_and_a_thin_finding_is_not_asked() -> None:
    gateway = fake_gateway({"commenter": [{"sentences": ["Report 95.5% on ImageNet."]}]},
                           local=True)
    check, warnings = await comment_findings(gateway, CheckReport(findings=[RICH, THIN]))
    rich, thin = check.findings
    assert rich.comment == "" and rich.comment_note.startswith("comment dropped: ")
    assert "95.5%" in rich.comment_note
    assert thin.comment_note.startswith("no comment: the finding has too little text")
    assert len(gateway.calls_for(role="commenter")) == 1, "only the finding that could pass"
    assert "finding_comments: kept 0 of 1 model comments; each finding without one says why" \
        in warnings


async def test_a_kept_comment_has_no_note() -> None:
    sentence = "Add the missing bibliography entry for the citation [12]."
    gateway = fake_gateway({"commenter": [{"sentences": [sentence]}]}, local=True)
    check, _ = await comment_findings(gateway, CheckReport(findings=[RICH]))
    assert check.findings[0].comment == sentence and check.findings[0].comment_note == ""


async def test_the_model_is_not_run_when_no_finding_could_pass() -> None:
    gateway = fake_gateway({}, local=True)
    check, warnings = await comment_findings(gateway, CheckReport(findings=[THIN, THIN]))
    assert gateway.calls_for(role="commenter") == [] and warnings == [NOT_RUN]
    assert all(f.comment_note for f in check.findings)
