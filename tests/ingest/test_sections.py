"""Heading detection on synthetic layout lines."""

from __future__ import annotations

from papermind.ingest.layout import FlowLine
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
