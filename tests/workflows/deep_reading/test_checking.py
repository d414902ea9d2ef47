"""Verdicts, credibility and feedback: lenient parsing, grounding caps, what is fed back."""

from __future__ import annotations

import pytest

from papermind.domain import Anchor, Evidence
from papermind.domain.reading import ReadingPoint
from papermind.workflows.deep_reading.checking import (
    apply_judgements,
    compose_feedback,
    overall_credibility,
    parse_credibility,
    parse_verdict,
)
from papermind.workflows.deep_reading.points import clean_quotes, diff_points
from papermind.workflows.deep_reading.schemas import CheckerOutput

FOUND = Evidence(quote="q", anchor=Anchor(page=1, line_start=2, line_end=3), matched_text="q",
                 verified=True, method="exact", score=1.0)
MISSING = Evidence(quote="made up", reasons=["quote not found in the paper"])


def _point(pid: str, *evidence: Evidence, text: str = "a point") -> ReadingPoint:
    return ReadingPoint(id=pid, kind="method", text=text, evidence=list(evidence))


@pytest.mark.parametrize(("raw", "expected"), [
    ("high", "high"), ("LOW", "low"), ("Credibility: medium.", "medium"),
    ("high or low", None), ("", None), ("excellent", None)])
def test_parse_credibility(raw: str, expected: str | None) -> None:
    assert parse_credibility(raw) == expected


@pytest.mark.parametrize(("raw", "expected"), [
    ("supported", "supported"), ("Not supported", "unsupported"), ("partially", "partial"),
    ("PARTIAL support", "partial"), ("unsupported!", "unsupported"), ("maybe", None)])
def test_parse_verdict(raw: str, expected: str | None) -> None:
    assert parse_verdict(raw) == expected


def test_unlocated_points_are_unsupported_whatever_the_model_says() -> None:
    output = CheckerOutput.model_validate({"judgements": [
        {"id": "M1", "verdict": "supported"}, {"id": "[m-2] (method)", "verdict": "supported"},
        {"id": "M3", "verdict": "??"}]})
    points, notes = apply_judgements(
        [_point("M1", MISSING), _point("M2", FOUND), _point("M3", FOUND), _point("M4", FOUND)],
        output)
    verdicts = [(p.verdict, p.verified) for p in points]
    assert verdicts == [("unsupported", False), ("supported", True), ("not_checked", True),
                        ("not_checked", True)]
    assert notes == ["M3: checker verdict '??' unreadable"]


def test_credibility_is_capped_by_grounding() -> None:
    good, bad = _point("M1", FOUND).model_copy(update={"verified": True}), _point("M2", MISSING)
    assert overall_credibility("high", [good, good])[0] == "high"
    level, notes = overall_credibility("high", [good, good, bad])
    assert level == "medium" and "capped from high to medium" in notes[0]
    assert overall_credibility("high", [good, bad, bad])[0] == "low"
    assert overall_credibility("high", [])[0] == "low"
    level, notes = overall_credibility("no idea", [good])
    assert level == "medium" and "unreadable: medium assumed" in notes[0]


def test_feedback_lists_missing_and_failed_quotes_and_advice() -> None:
    failed = FOUND.model_copy(update={"verified": False, "reasons": ["'42%' is not in it"]})
    points = [_point("M1", MISSING).model_copy(update={"verdict": "unsupported",
                                                       "verdict_note": "no quote found"}),
              _point("M2", failed), _point("M3")]
    text = compose_feedback(points, "low", "Quote the method section.")
    assert 'Overall credibility: LOW.' in text
    assert '- M1: "made up"' in text and "- M2: \"q\" ('42%' is not in it)" in text
    assert "Points without any quote: M3" in text and "- M1: no quote found" in text
    assert text.endswith("Checker's advice: Quote the method section.")


def test_clean_quotes_splits_at_omissions_and_strips_marks() -> None:
    quotes = ['"First real sentence here." [...] Second real sentence here.', "  ", "tiny",
              "\u201cFirst real sentence here.\u201d"]
    assert clean_quotes(quotes, 5) == ["First real sentence here.", "Second real sentence here."]
    assert clean_quotes(quotes, 1) == ["First real sentence here."]
    # the context's own labels ("[Equation (1)]") are not part of the paper's text
    assert clean_quotes(["[Equation (1)] s(q, p) = a x + b", "Table 2: Recall at k"], 5) == [
        "s(q, p) = a x + b", "Recall at k"]


def test_diff_points_names_kept_revised_added_removed() -> None:
    before = [_point("M1", FOUND, text="The router picks two experts."),
              _point("M2", MISSING, text="Tokens are routed at random to experts."),
              _point("M3", FOUND, text="Load balancing uses an auxiliary loss.")]
    after = [_point("M1", FOUND, text="The router picks two experts."),
             _point("M2", FOUND, text="Tokens are routed by score to experts."),
             _point("M3", FOUND, text="Completely different statement about GPUs.")]
    changes, kept = diff_points(before, after)
    assert kept == 1
    assert [(c.change, c.before_id, c.after_id) for c in changes] == [
        ("revised", "M2", "M2"), ("added", None, "M3"), ("removed", "M3", None)]
    assert changes[0].note == "text and quotes revised"


def test_weak_model_shapes_still_parse() -> None:
    from papermind.workflows.deep_reading.schemas import QuestionerOutput, ReaderOutput

    draft = ReaderOutput.model_validate({
        "method": "Routes tokens to experts.", "derivation": [{"states": ["a", "b"]}],
        "experiments": [{"datasets": "GLUE", "quotes": "We evaluate on GLUE."}],
        "results": None, "extra": 1})
    assert draft.method[0].point == "Routes tokens to experts."
    assert draft.derivation[0].states == "a; b"
    assert draft.experiments.datasets == ["GLUE"] and draft.results == []
    questions = QuestionerOutput.model_validate({"questions": ["Why two experts?"]})
    assert questions.questions[0].question == "Why two experts?"


def test_questioner_schema_allows_only_verified_ids() -> None:
    from papermind.workflows.deep_reading.schemas import questioner_schema

    schema = questioner_schema(["M1", "R2"]).model_json_schema()
    items = schema["$defs"]["QuestionOut"]["properties"]["builds_on"]["items"]
    assert items == {"type": "string", "enum": ["M1", "R2"]}
    assert questioner_schema(["M1"]).model_validate({"questions": [
        {"question": "q", "builds_on": ["X9"]}]}).questions[0].builds_on == ["X9"]
