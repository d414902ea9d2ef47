"""The bundled example paper parses into the structure it was written with."""

from __future__ import annotations

from pathlib import Path

import pytest

from papermind.domain.paper import Paper
from papermind.ingest import parse_file

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "example_paper.pdf"


@pytest.fixture(scope="module")
def paper() -> Paper:
    return parse_file(EXAMPLE)


def test_front_matter(paper: Paper) -> None:
    assert paper.title == ("Budgeted Evidence Retrieval for Question Answering over Long "
                           "Scientific Papers")
    assert paper.authors == ["Mira Okonkwo", "Tomas Lindqvist", "Hana Ishikawa"]
    assert paper.abstract.startswith("Question answering over scientific papers requires")
    assert paper.abstract.endswith("reproduce every table.")
    assert 4 <= len(paper.pages) <= 6


def test_sections_numbers_levels_and_kinds(paper: Paper) -> None:
    heads = [(s.number, s.title, s.level) for s in paper.sections]
    assert heads == [
        (None, "Abstract", 1), ("1", "Introduction", 1), ("2", "Related Work", 1),
        ("3", "Method", 1), ("3.1", "Passage Scoring", 2), ("3.2", "Budgeted Selection", 2),
        ("4", "Experiments", 1), ("4.1", "Setup", 2), ("4.2", "Results", 2),
        ("4.3", "Analysis", 2), ("5", "Limitations", 1), ("6", "Conclusion", 1),
        (None, "References", 1),
    ]
    method = next(s for s in paper.sections if s.title == "Method")
    assert method.kind == "method" and len(method.children) == 2
    assert paper.section_path(method.children[1]) == ["Method", "Budgeted Selection"]


def test_equations_and_captions(paper: Paper) -> None:
    assert [e.label for e in paper.equations] == ["1", "2"]
    assert paper.equations[0].text.startswith("s(q, p) = a · bm25(q, p)")
    assert [(c.kind, c.label) for c in paper.captions] == [("table", "1"), ("figure", "1")]
    assert paper.captions[0].text.startswith("Table 1: Evidence recall")
    assert all(not p.text.startswith(("Table 1:", "Figure 1:")) for p in paper.paragraphs)
    assert any(p.text.startswith("Table 1 shows evidence recall") for p in paper.paragraphs)


def test_references_and_citations(paper: Paper) -> None:
    refs = paper.references
    assert [r.key for r in refs] == ["1", "2", "3", "4", "5", "6"]
    assert refs[0].title == "Lost in the middle: How language models use long contexts"
    assert refs[0].doi == "10.1162/tacl_a_00638" and refs[0].year == 2024
    assert refs[1].arxiv == "2004.04906"
    assert refs[4].authors == ["Stephen Robertson", "Hugo Zaragoza"]
    resolved = {c.marker: c.reference_keys for c in paper.citations}
    assert resolved["[1, 3-4]"] == ["1", "3", "4"]
    assert resolved["[2, 5]"] == ["2", "5"]
    cited = {k for c in paper.citations for k in c.reference_keys}
    assert cited == {"1", "2", "3", "4", "5", "6"}


def test_furniture_is_out_of_the_flow(paper: Paper) -> None:
    for page in paper.pages:
        kinds = {f.kind for f in page.furniture}
        assert "page_number" in kinds
        assert all(not line.text.isdigit() for line in page.lines)
    assert any(f.kind == "header" for p in paper.pages[1:] for f in p.furniture)


def test_every_block_maps_back_to_its_lines(paper: Paper) -> None:
    blocks = [*paper.paragraphs, *paper.equations, *paper.captions]
    assert len(paper.paragraphs) > 20
    for block in blocks:
        for seg in block.segments:
            line = paper.page(seg.page).line(seg.line)
            assert block.text[seg.start:seg.end] == line.text[seg.line_start:seg.line_end]
    joined = next(p for p in paper.paragraphs if "Readers of a scientific paper" in p.text)
    assert joined.first is not None and joined.first.page == 1
    assert "whole document to answer" in joined.text  # joined across a line break
