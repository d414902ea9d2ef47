"""Front matter: title, authors and the venue year."""

from __future__ import annotations

from papermind.ingest.layout import FlowLine
from papermind.ingest.metadata import front_matter, inline_abstract, venue_year
from papermind.ingest.normalize import Vocabulary


def _line(text: str, y: float, size: float = 10.0) -> FlowLine:
    return FlowLine(page=1, text=text, box=(72, y, 500, y + size), size=size, peak=size)


def test_title_by_size_and_authors_split_at_footnote_marks() -> None:
    lines = [
        _line("Under review as a conference paper", 40, 8),
        _line("SPECTER: Document-level Representation", 70, 14.3),
        _line("Learning using Citation-informed Transformers∗", 88, 14.3),
        _line("Arman Cohan†∗ Sergey Feldman†∗ Iz Beltagy† Daniel S. Weld†,‡", 120, 12),
        _line("†Allen Institute for Artificial Intelligence", 140, 12),
        _line("{armanc,sergey}@allenai.org", 158, 12),
        _line("Abstract", 200, 12),
    ]
    meta = front_matter(lines, stop=6)
    assert meta.title == ("SPECTER: Document-level Representation Learning using "
                          "Citation-informed Transformers")
    assert meta.authors == ["Arman Cohan", "Sergey Feldman", "Iz Beltagy", "Daniel S. Weld"]
    assert meta.title_lines == [1, 2] and 3 in meta.author_lines


def test_inline_abstract_and_venue_year() -> None:
    assert inline_abstract("Abstract—In this paper, we consider the placement of video.") == (
        "In this paper, we consider the placement of video.")
    assert inline_abstract("Abstracts of talks") is None
    assert venue_year([_line("In 1990 we built a parser", 10),
                       _line("Proceedings of the 52nd Annual Meeting, 2014", 700)]) == 2014
    assert venue_year([_line("We ran 2019 experiments", 10)]) is None


def test_all_caps_small_caps_title_over_three_lines_is_not_an_author() -> None:
    def caps(text: str, y: float, size: float, peak: float) -> FlowLine:
        return FlowLine(page=1, text=text, box=(108, y, 507, y + 15), size=size, peak=peak, font="Palatino")

    lines = [
        caps("DUALSCALE DIFFUSION: ADAPTIVE FEATURE BAL-", 82, 17.4, 17.4),
        caps("ANCING FOR LOW-DIMENSIONAL GENERATIVE MOD-", 102, 13.9, 17.3),  # small caps sampled small
        caps("ELS", 124, 13.8, 13.8),
        FlowLine(page=1, text="Anonymous authors", box=(114, 157, 200, 166), size=10, peak=10, bold=True),
        _line("ABSTRACT", 208),
    ]
    vocab = Vocabulary.of([_line("by balancing low-dimensional models", 300)])
    meta = front_matter(lines, stop=4, vocab=vocab)
    assert meta.title == "DUALSCALE DIFFUSION: ADAPTIVE FEATURE BALANCING FOR LOW-DIMENSIONAL GENERATIVE MODELS"
    assert meta.title_lines == [0, 1, 2] and meta.authors == []


def test_a_drop_capital_does_not_make_a_paragraph_the_title() -> None:
    lines = [
        _line("Adapting Open", 93, 24),
        _line("Information Extraction", 123, 24),
        FlowLine(page=1, text="Human reading relies on a mixture of domain-indepen-",
                 box=(259, 362, 523, 401), size=9.0, peak=38.9),
    ]
    assert front_matter(lines, stop=3).title == "Adapting Open Information Extraction"


def test_author_names_parted_only_by_a_wide_gap_are_two_names() -> None:
    authors = FlowLine(page=1, text="Ruifang Ge Raymond J. Mooney", box=(219, 113, 393, 126), size=12,
                       peak=12, pieces=[("Ruifang Ge", (219, 113, 280, 126)),
                                        ("Raymond J. Mooney", (310, 113, 393, 126))])
    lines = [_line("A Statistical Semantic Parser", 64, 14.3), authors, _line("Abstract", 240, 12)]
    assert front_matter(lines, stop=2).authors == ["Ruifang Ge", "Raymond J. Mooney"]


def test_a_marked_name_on_its_affiliation_line_is_kept_and_the_affiliation_is_not() -> None:
    lines = [_line("Unlearned but Not Forgotten", 70, 14.3),
             _line("Xiaoyu Wu∗ Rice University Houston, TX 77005", 100, 10),
             _line("Yifei Pang", 120, 10), _line("Carnegie Mellon University Pittsburgh, PA 15213", 134, 10),
             _line("Abstract", 200, 12)]
    meta = front_matter(lines, stop=4)
    assert meta.authors == ["Xiaoyu Wu", "Yifei Pang"] and meta.marks == [["∗"], []]
    assert meta.author_lines == [1, 2, 3]
