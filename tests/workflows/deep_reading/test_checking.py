"""Point verdicts, credibility and feedback: from support, with code's verdicts kept."""

from __future__ import annotations

from papermind.domain import Anchor, Evidence, Support
from papermind.domain.reading import ReadingPoint
from papermind.workflows.deep_reading.checking import (
    compose_feedback,
    credibility,
    support_items,
    with_verdicts,
)
from papermind.workflows.deep_reading.points import citations, diff_points
from papermind.workflows.support_judge import SupportItem

FOUND = Evidence(quote="q", cited="1:2-3", anchor=Anchor(page=1, line_start=2, line_end=3),
                 matched_text="q", method="lines", score=1.0)
MISSING = Evidence(quote="made up", cited="9:99", reasons=["the paper has no line 9:99"])


def _support(verdict: str, by: str = "checker:m", reason: str = "") -> Support:
    return Support(verdict=verdict, by=by, reason=reason)


def _point(pid: str, *evidence: Evidence, text: str = "a point") -> ReadingPoint:
    return ReadingPoint(id=pid, kind="method", text=text, evidence=list(evidence))


def _judged(*pairs: tuple[str, list[Evidence]]) -> list[ReadingPoint]:
    points = [_point(pid, *evidence) for pid, evidence in pairs]
    items = [SupportItem(p.text, tuple(p.evidence), key=p.id) for p in points]
    return with_verdicts(points, items)


def test_point_verdicts_combine_evidence_and_verified_needs_found_and_supported() -> None:
    supported = FOUND.with_support(_support("supported", reason="says it"))
    thin = FOUND.with_support(_support("not_enough", reason="other topic"))
    code = FOUND.with_support(_support("contradicted", by="code", reason="95 vs 92"))
    points = _judged(("M1", [supported]), ("M2", [thin]), ("M3", [MISSING]),
                     ("M4", [FOUND]), ("M5", [thin, supported]), ("M6", [supported, code]),
                     ("M7", []))
    got = [(p.verdict, p.verified, p.verdict_by) for p in points]
    assert got == [("supported", True, "checker:m"), ("not_enough", False, "checker:m"),
                   ("not_found", False, "code"), ("unchecked", False, ""),
                   ("supported", True, "checker:m"), ("contradicted", False, "code"),
                   ("not_found", False, "code")]
    assert points[2].verdict_note == "the paper has no line 9:99"
    assert points[5].verdict_note == "95 vs 92"


def test_credibility_comes_from_support_not_from_found() -> None:
    good = _judged(("M1", [FOUND.with_support(_support("supported"))]))[0]
    thin = _judged(("M2", [FOUND.with_support(_support("not_enough"))]))[0]
    wrong = _judged(("M3", [FOUND.with_support(_support("contradicted"))]))[0]
    assert credibility([good, good])[0] == "high"
    assert credibility([thin, thin])[0] == "low"  # everything found, nothing supported
    assert credibility([good, thin])[0] == "medium"
    assert credibility([good, good, good, wrong])[0] == "low"  # a contradiction
    level, reason = credibility([good, thin, thin])
    assert level == "low" and reason == "1 of 3 points verified (found and supported)"
    assert credibility([])[0] == "low"


def test_feedback_names_each_unverified_point_and_why() -> None:
    points = _judged(("M1", [MISSING]),
                     ("M2", [FOUND.with_support(_support("contradicted", by="code",
                                                         reason="'42%' is not in it"))]),
                     ("M3", [FOUND.with_support(_support("not_enough", reason="off topic"))]),
                     ("M4", [FOUND]),
                     ("M5", [FOUND.with_support(_support("supported"))]))
    text = compose_feedback(points, "low", "1 of 5 points verified")
    assert text.startswith("Overall credibility: LOW (1 of 5 points verified).")
    assert '- M1 cites 9:99 "made up": the paper has no line 9:99 (code)' in text
    assert "- M2 cites 1:2-3 \"q\": '42%' is not in it (code)" in text
    assert '- M3 cites 1:2-3 "q": off topic (checker:m)' in text
    assert "could not be checked:\n- M4" in text and "M5" not in text


def test_support_items_carry_the_points_text_and_evidence() -> None:
    point = _point("R1", FOUND, MISSING, text="Saves 31%.").model_copy(
        update={"supports": "efficiency"})
    (item,) = support_items([point])
    assert item.key == "R1" and item.claim == "Saves 31%. (supports: efficiency)"
    assert item.evidence == (FOUND, MISSING) and item.judgeable == (FOUND,)


def test_citations_from_the_reader_dedupe_and_keep_the_quote_with_the_first() -> None:
    cites = citations(["[3:12-14]", "3:12-14", "4:2", "5:1"], "\u201cwe fit\u201d", 2)
    assert [(e.cited, e.quote) for e in cites] == [("3:12-14", "we fit"), ("4:2", "")]
    assert [(e.cited, e.quote) for e in citations([], "a bare quote only", 2)] == [
        ("", "a bare quote only")]
    assert citations(["  "], "tiny", 2) == []


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
    assert changes[0].note == "text and citations revised"


def test_weak_model_shapes_still_parse() -> None:
    from papermind.workflows.deep_reading.schemas import QuestionerOutput, ReaderOutput

    draft = ReaderOutput.model_validate({
        "method": "Routes tokens to experts.", "derivation": [{"states": ["a", "b"]}],
        "experiments": [{"datasets": "GLUE", "lines": "1:21", "quote": ["We evaluate"]}],
        "results": None, "extra": 1})
    assert draft.method[0].point == "Routes tokens to experts."
    assert draft.derivation[0].states == "a; b"
    assert draft.experiments.datasets == ["GLUE"] and draft.results == []
    assert draft.experiments.lines == ["1:21"] and draft.experiments.quote == "We evaluate"
    questions = QuestionerOutput.model_validate({"questions": ["Why two experts?"]})
    assert questions.questions[0].question == "Why two experts?"


def test_questioner_schema_allows_only_verified_ids() -> None:
    from papermind.workflows.deep_reading.schemas import questioner_schema

    schema = questioner_schema(["M1", "R2"]).model_json_schema()
    items = schema["$defs"]["QuestionOut"]["properties"]["builds_on"]["items"]
    assert items == {"type": "string", "enum": ["M1", "R2"]}
    assert questioner_schema(["M1"]).model_validate({"questions": [
        {"question": "q", "builds_on": ["X9"]}]}).questions[0].builds_on == ["X9"]
