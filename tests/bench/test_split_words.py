"""The held-out check on a few shared PDFs: no split words, no wrongly kept hyphens (needs
Debian's pdftotext as the reference; skipped without it or without the shared data)."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest
from bench.split_words import Tally, kept_hyphens, measure, split_words, whole_words

from papermind.domain import Paper, Paragraph, Segment
from papermind.ingest import parse_file

PDFS = ["s2orc_doc2json/N18-3011.pdf", "s2orc_doc2json/2020.acl-main.207.pdf",
        "science_parse/bohnet09.pdf", "science_parse/mono04.pdf", "ai_scientist_fewshot/attention.pdf",
        "zh/thuthesis_example_v7.5.0.pdf"]


def test_a_split_word_is_counted_and_a_line_end_half_is_not() -> None:
    page = {"directed", "graph", "a", "are", "framework"}
    assert split_words("the di rected graph", page) == ["di rected"]
    assert split_words("the directed graph of a re-", page) == []
    assert split_words("a Frame work", page) == ["Frame work"]


def test_a_kept_hyphen_is_wrong_only_where_the_paper_or_word_list_has_the_word() -> None:
    text = "an eval-uation of self-attention and zorbl-quax"
    cut = [text.index("eval-") + 5, text.index("self-") + 5, text.index("zorbl-") + 6]
    segments = [Segment(start=s, end=e, page=1, line=i + 1, line_start=0, line_end=e - s)
                for i, (s, e) in enumerate(zip([0, *cut], [*cut, len(text)], strict=True))]
    paper = Paper(id="p", paragraphs=[Paragraph(id="p1", text=text, segments=segments)])
    doc = whole_words("we use self-attention\nand evaluation\n")
    assert kept_hyphens(paper, doc, frozenset({"evaluation"})) == ["eval-uation"]
    assert whole_words("a split eval-\nuation here") == Counter({"a": 1, "split": 1, "here": 1})


@pytest.mark.parametrize("name", PDFS)
def test_no_split_words_and_no_wrongly_kept_hyphens(shared_data: Path, name: str) -> None:
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (Debian poppler-utils) is not installed")
    path = shared_data / "pdfs" / name
    if not path.is_file():
        pytest.skip(f"{name} not in the shared data")
    paper = parse_file(path)
    tally = Tally()
    assert measure(path, paper, tally)
    assert tally.lines > 100
    assert (tally.split, tally.block_split, tally.hyphens) == ([], [], [])
