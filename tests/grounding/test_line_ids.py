"""Line ids: the prompt form, and the forgiving parser of what models cite."""

from __future__ import annotations

import pytest

from papermind.domain import LineRef
from papermind.grounding import GroundingEngine, parse_cited
from tests.grounding.paper_builder import page, paper, sample_paper

PAPER = sample_paper()


@pytest.mark.parametrize(("cited", "labels"), [
    ("3:12", ["3:12"]), ("[3:12]", ["3:12"]), ("3:12-14", ["3:12-14"]),
    ("[3:12]-[3:14]", ["3:12-14"]), ("3:40-4:2", ["3:40-4:2"]), ("p. 3, l. 12-14", ["3:12-14"]),
    ("page 3 line 12", ["3:12"]), ("p.3 l.12", ["3:12"]), ("(3:12)", ["3:12"]),
    ("lines 3:12\u20133:15", ["3:12-15"]), ("3:14-12", ["3:12-14"]),
    ("p. 4, l. 90 - p. 5, l. 12", ["4:90-5:12"]),
    ("2:5, 2:9", ["2:5", "2:9"]), ("3:12; 4:1-3 and 5:6", ["3:12", "4:1-3", "5:6"]),
    ("[1:2], [1:4]", ["1:2", "1:4"]), ("3:12, 14-15", ["3:12", "3:14-15"]),
    ("3:40-4:2, 5", ["3:40-4:2", "4:5"]), ("p. 3, 12", ["3:12"]), ("3, l. 12", ["3:12"]),
    ("pp. 3:12 to 3:14", ["3:12-14"]), ("Page 2, lines 5-7", ["2:5-7"]),
])
def test_forms_models_write_are_read(cited: str, labels: list[str]) -> None:
    parsed = parse_cited(cited)
    assert [s.label() for s in parsed.spans] == labels and parsed.unreadable == []


def test_what_is_not_a_line_id_is_reported() -> None:
    parsed = parse_cited("see the abstract; 1:2")
    assert [s.label() for s in parsed.spans] == ["1:2"]
    assert parsed.unreadable == ["see the abstract"]
    for ambiguous in ("12, 14", "3.12", "12 14"):  # no page named: not read as page 12
        assert parse_cited(ambiguous).spans == [], ambiguous


def test_numbered_text_marks_pages_once_and_numbers_each_line() -> None:
    text = GroundingEngine().numbered_text(PAPER)
    rows = text.splitlines()
    assert rows[0] == "[p.1]" and rows[1] == "1 Deep networks are trained with stochastic gra-"
    assert "[p.2]" in rows and rows[rows.index("[p.2]") + 1].startswith("1 Figure 3:")
    assert len(rows) == len(list(PAPER.lines())) + 2


def test_condensed_lines_keep_their_original_ids_and_show_gaps() -> None:
    keep = [LineRef(page=2, line=2), LineRef(page=1, line=2), LineRef(page=1, line=3),
            LineRef(page=1, line=6), LineRef(page=9, line=1)]
    rows = GroundingEngine().numbered_text(PAPER, keep).splitlines()
    assert rows == ["[p.1]", "...", "2 dient descent. The eﬃcient model reaches 84.7% accuracy",
                    "3 on CIFAR-10 after 200 epochs, which is state-of-the-", "...",
                    "6 matters a lot for small batches, as Table 2 shows.", "[p.2]", "...",
                    "2 We also observe that “the learning rate” is the most"]


def test_blank_lines_are_not_shown_and_make_no_gap() -> None:
    blank = paper(page(1, ["First paragraph ends.", "", "", "Second paragraph.", "",
                           "Third paragraph."]))
    engine = GroundingEngine()
    assert engine.numbered_text(blank).splitlines() == [
        "[p.1]", "1 First paragraph ends.", "4 Second paragraph.", "6 Third paragraph."]
    keep = [LineRef(page=1, line=1), LineRef(page=1, line=4)]
    assert engine.numbered_text(blank, keep).splitlines() == [
        "[p.1]", "1 First paragraph ends.", "4 Second paragraph."]
    keep = [LineRef(page=1, line=1), LineRef(page=1, line=6)]
    assert engine.numbered_text(blank, keep).splitlines() == [
        "[p.1]", "1 First paragraph ends.", "...", "6 Third paragraph."]
