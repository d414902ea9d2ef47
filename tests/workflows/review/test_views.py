"""Role views: selection by Section.kind, by heading when kinds are missing, by position last."""

from __future__ import annotations

from pathlib import Path

from papermind.domain import Paper
from papermind.grounding import GroundingEngine
from papermind.workflows.review.targets import resolve_target
from papermind.workflows.review.views import (
    View,
    contribution_view,
    editor_view,
    experiment_view,
    methodology_view,
    section_groups,
)
from tests.workflows.review.paperkit import DISTINCT, build_paper, flat

VIEWS = {"contribution": (contribution_view, {"abstract", "introduction", "conclusion"}),
         "method": (methodology_view, {"method", "equation", "figure"}),
         "experiment": (experiment_view, {"experiments", "table", "ablation"})}


def _text(paper: Paper, view: View) -> str:
    return GroundingEngine().numbered_text(paper, view.lines)


def _check(paper: Paper) -> None:
    for name, (view, parts) in VIEWS.items():
        text = flat(_text(paper, view(paper, 4000)))
        for part, phrase in DISTINCT.items():
            assert (phrase in text) == (part in parts), (name, part)


def test_views_by_section_kind() -> None:
    _check(build_paper())


def test_views_by_heading_when_kinds_are_missing() -> None:
    paper = build_paper(with_kinds=False)
    assert set(section_groups(paper).values()) >= {"intro", "method", "experiment", "ablation"}
    _check(paper)


def test_positional_fallback_without_headings() -> None:
    paper = build_paper()
    flat_paper = paper.model_copy(update={
        "sections": [], "abstract": "",
        "paragraphs": [p.model_copy(update={"section_id": None}) for p in paper.paragraphs]})
    method, experiment = methodology_view(flat_paper, 4000), experiment_view(flat_paper, 4000)
    assert method.lines and experiment.lines and method.lines != experiment.lines
    assert DISTINCT["method"] in flat(_text(flat_paper, method))
    assert DISTINCT["ablation"] in flat(_text(flat_paper, experiment))


def test_budget_is_shared_fairly_across_sections() -> None:
    paper = build_paper()
    view = experiment_view(paper, 180)
    text = _text(paper, view)
    assert len(text) < 300 and view.size <= 180 + 20
    assert "\n20 4 Experiments\n21 " in text and "\n26 4.1 Ablation study\n27 " in text


def test_views_keep_the_original_line_ids() -> None:
    paper = build_paper()
    lines = methodology_view(paper, 4000).lines
    assert [(r.page, r.line) for r in lines] == [(1, n) for n in range(12, 20)]
    assert lines == sorted(lines, key=lambda r: (r.page, r.line))


def test_editor_sees_outline_only() -> None:
    text = editor_view(build_paper())
    assert "4.1 Ablation study" in text and DISTINCT["abstract"] in text
    assert DISTINCT["method"] not in text


def test_targets_resolve_to_elements() -> None:
    paper = build_paper()
    table = resolve_target(paper, "Table 1")
    assert table.kind == "table" and table.anchor is not None
    assert paper.page(table.anchor.page).line(table.anchor.line_start).text.startswith("Table 1")
    assert resolve_target(paper, "Eq. (1)").anchor is not None
    assert resolve_target(paper, "Section 4.1").anchor is not None
    assert resolve_target(paper, "p. 1, l. 2-3").anchor is not None
    assert resolve_target(paper, "Table 9").anchor is None
    assert resolve_target(paper, "p. 99, l. 1").anchor is None


def test_real_paper_views_are_distinct(shared_data: Path) -> None:
    from papermind.ingest import parse_file

    paper = parse_file(shared_data / "iclr_bench" / "papers" / "04pGUg0-pdZ.txt")
    views = [view(paper, 6000) for view, _ in VIEWS.values()]
    texts = [_text(paper, v) for v in views]
    assert all(t and len(t) <= 6000 + 200 for t in texts)
    assert all(v.size <= 6000 + 200 for v in views)
    assert views[0].sections != views[1].sections != views[2].sections


def test_abstract_takes_at_most_a_third_of_the_contribution_budget() -> None:
    paper = build_paper()
    view = contribution_view(paper, 150)
    abstract = [r for r in view.lines if (r.page, r.line) in {(1, 3), (1, 4)}]
    assert not abstract  # its 62-character first line does not fit in a third of 150
    assert (1, 6) in {(r.page, r.line) for r in view.lines}  # the introduction still does
