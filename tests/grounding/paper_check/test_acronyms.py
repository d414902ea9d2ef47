"""Acronym definitions in every form authors write them: 'long form (X)', 'X (long form)',
'where X denotes ...', 'X stands for ...', a glossary table row, a footnote."""

from __future__ import annotations

from pathlib import Path

import pytest

from papermind.grounding.paper_check.acronyms import acronym_findings
from papermind.grounding.paper_check.spots import Spot

INTRO = "Abstract: we study small denoisers on two data sets with care here."


def _before(lines: list[str], page_of: list[int] | None = None) -> list[tuple[str, int]]:
    pages = page_of or [1] * (len(lines) + 1)
    spots = [Spot(t, pages[n], n + 1) for n, t in enumerate([INTRO, *lines])]
    return [(f.message.split()[0], f.anchor.line_start) for f in acronym_findings(spots)
            if f.kind == "acronym_before_definition" and f.anchor]


USE = "The MLP is trained for every noise level that we study in this paper."


@pytest.mark.parametrize("definition", [
    "where MLP denotes a multi-layer perceptron with sinusoidal embeddings for the input,",
    "Here MLP stands for multi-layer perceptron, the simplest network we could use.",
    "Our MLP (multi-layer perceptron) has three hidden layers of 256 units each.",
    "| MLP | multi-layer perceptron | 3 layers |",
])
def test_each_form_of_definition_counts(definition: str) -> None:
    used_later = [definition, USE]
    assert _before(used_later) == []
    used_first = [USE, "Some more prose follows here for a few more lines of text.",
                  "And again some more prose follows here for a few more lines.",
                  "And a last line of prose before the definition is given here.", definition]
    assert _before(used_first, page_of=[1, 1, 1, 1, 1, 2]) == [("MLP", 2)]


def test_the_classic_form_still_counts() -> None:
    assert _before([USE, "A multi-layer perceptron (MLP) is the network we train here."]) == [
        ("MLP", 2)]


def test_a_definition_explaining_the_display_above_it_covers_the_display() -> None:
    lines = [r"\epsilon_\theta(\mathbf{x}_t, t) = \text{MLP}(\mathbf{x}_t, t) for every step",
             "where MLP denotes a multi-layer perceptron with sinusoidal embeddings,"]
    assert _before(lines) == []
    assert _before(["The model is a small network $f = \\text{MLP}(x)$ of three layers here.",
                    "Later, the multi-layer perceptron (MLP) is trained with Adam."]) == []


def test_a_footnote_definition_counts_for_its_page() -> None:
    lines = [USE, "More prose on the same page as the use, long enough to be prose.",
             "1 MLP: multi-layer perceptron, the network we use throughout this paper."]
    assert _before(lines, page_of=[1, 1, 1, 1]) == []
    assert _before(lines, page_of=[1, 1, 1, 2]) == [("MLP", 2)]  # a footnote of a later page


def test_words_whose_initials_do_not_spell_it_are_no_definition() -> None:
    assert _before([USE, "where MLP denotes the model we train, with three layers each."]) == []
    # no definition at all: nothing is judged (only acronyms the authors define are)


def test_no_mlp_finding_on_the_generated_dual_scale_paper(shared_data: Path) -> None:
    from papermind.grounding.paper_check import check_paper, check_project
    from papermind.ingest import parse_file
    from papermind.ingest.latex_project import read_project
    from papermind.services.paper_checks import check_options

    folder = shared_data / "pdfs" / "generated_with_latex" / "adaptive_dual_scale_denoising"
    if not folder.is_dir():
        pytest.skip("the generated dual-scale paper is not in this copy of the data")
    reports = [check_paper(parse_file(folder / f"{folder.name}.pdf"), check_options()),
               check_project(read_project(folder / "latex" / "template.tex"), check_options())]
    for report in reports:
        assert not [f for f in report.findings if f.kind == "acronym_before_definition"
                    and f.message.startswith("MLP ")]
