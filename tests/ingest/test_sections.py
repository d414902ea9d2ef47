"""Heading detection on synthetic layout lines."""

from __future__ import annotations

from papermind.ingest.layout import FlowLine
from papermind.ingest.outline import continues, fragment_title
from papermind.ingest.sections import find_headings


def _line(text: str, y: float, size: float = 10.0, bold: bool = False) -> FlowLine:
    return FlowLine(page=1, text=text, box=(72, y, 300, y + 11), size=size, peak=size, bold=bold)


def test_numbered_bold_and_small_caps_headings_with_levels() -> None:
    lines = [
        _line("1 Introduction", 100, bold=True),
        _line("Body text of the introduction goes on for a while.", 115),
        _line("2.1 SETUP DETAILS", 130),  # small caps, body size, not bold
        _line("3 The model is trained for ten epochs with Adam.", 145),  # plain body line
        _line("2.2 Results", 160, bold=True),
        _line("References", 175, bold=True),
    ]
    found = [(h.number, h.title, h.level, h.kind) for h in find_headings(lines, 10.0)]
    assert found == [("1", "Introduction", 1, "introduction"), ("2.1", "SETUP DETAILS", 2, "experiments"),
                     ("2.2", "Results", 2, "results"), (None, "References", 1, "references")]


def test_ieee_roman_sections_and_lettered_subsections() -> None:
    lines = [
        _line("I. INTRODUCTION", 100, size=8.0),
        _line("E. Chang was with the University of California", 112, size=8.0),  # footnote
        _line("A. Storage of Scalable Video", 124),
        _line("C. Out of Sequence Letter", 136),
        _line("B. Experimental Results", 148),
        _line("III. SKIPPED NUMBER", 160, size=8.0),
        _line("II. SYSTEM PARAMETERS", 172, size=8.0),
    ]
    found = [(h.number, h.title, h.level) for h in find_headings(lines, 10.0)]
    assert found == [("I", "INTRODUCTION", 1), ("A", "Storage of Scalable Video", 2),
                     ("B", "Experimental Results", 2), ("II", "SYSTEM PARAMETERS", 1)]


def test_table_cells_sharing_a_row_are_not_headings() -> None:
    lines = [_line("Method", 100, bold=True),
             FlowLine(page=1, text="512", box=(200, 100, 230, 111), size=10, peak=10, bold=True)]
    assert find_headings(lines, 10.0) == []


def test_numbered_list_items_in_body_font_never_become_sections() -> None:
    """MapReduce: bold-looking body text with a numbered list after '3.1'; real 3.2 follows."""
    lines = [
        _line("1 Introduction", 70, size=12.0, bold=True),
        _line("2 Programming Model", 85, size=12.0, bold=True),
        _line("3 Implementation", 100, size=12.0, bold=True),
        _line("3.1 Execution Overview", 115, size=12.0, bold=True),
        _line("1. The MapReduce library in the user program first", 130, bold=True),
        _line("splits the input files into M pieces of typically", 142, bold=True),
        _line("3 A worker who is assigned a map task reads the", 154, bold=True),
        _line("contents of the corresponding input split. It parses", 166, bold=True),
        _line("7 When all map tasks and reduce tasks have been", 178, bold=True),
        _line("completed, the master wakes up the user program.", 190, bold=True),
        _line("3.2 Master Data Structures", 205, size=12.0, bold=True),
        _line("4 Refinements", 220, size=12.0, bold=True),
    ]
    lines[10].starts_block = lines[11].starts_block = True
    found = [(h.number, h.title) for h in find_headings(lines, 10.0)]
    assert found == [("1", "Introduction"), ("2", "Programming Model"), ("3", "Implementation"), ("3.1", "Execution Overview"),
                     ("3.2", "Master Data Structures"), ("4", "Refinements")]


def test_wrapped_run_in_and_out_of_sequence_headings() -> None:
    lines = [
        _line("1 Introduction", 100, size=12.0, bold=True),
        _line("2 Unsupervised generative automated", 120, size=12.0, bold=True),
        _line("scoring with word alignment", 132, size=12.0, bold=True),
        _line("2.1 Preprocessing the Input Instance. We say that an instance is bounded", 150),
        _line("D (Sp, Xi) + C X", 170, bold=True),  # a formula line, not appendix D
        _line("0.87 The relation GameLoser, where the team", 185, bold=True),
    ]
    lines[3].lead_font = "CMBX10"
    lines[3].font = lines[4].font = lines[5].font = "CMR10"
    lines[0].font = lines[1].font = lines[2].font = "CMBX12"
    found = find_headings(lines, 10.0)
    assert [(h.number, h.title, h.run_in, h.extra) for h in found] == [
        ("1", "Introduction", False, []),
        ("2", "Unsupervised generative automated scoring with word alignment", False, [2]),
        ("2.1", "Preprocessing the Input Instance", True, []),
    ]


def test_fragment_titles_and_outline_numbering() -> None:
    assert fragment_title("A worker who is assigned a map task reads the")
    assert fragment_title("Storage of Scalable VBR Video Using")
    assert not fragment_title("Results for Scale Factor 30")
    assert continues((3, 1), (3, 2)) and continues((3, 6), (4,)) and continues((2, 3), (4, 1))
    assert not continues((3, 1), (3,)) and not continues((4,), (7,)) and not continues((), (0, 87))


def test_a_repeated_abstract_heading_is_one_section_but_two_languages_are_two() -> None:
    lines = [_line("ABSTRACT", 100, bold=True), _line("We study things at length here.", 115),
             _line("ABSTRACT", 130, bold=True), _line("1 Introduction", 145, bold=True)]
    assert [h.title for h in find_headings(lines, 10.0)] == ["ABSTRACT", "Introduction"]
    twins = [_line("摘要", 100, size=14, bold=True), _line("中文摘要的正文在这里。", 115),
             _line("Abstract", 130, bold=True), _line("English text of the abstract.", 145)]
    assert [h.kind for h in find_headings(twins, 10.0)] == ["abstract", "abstract"]
