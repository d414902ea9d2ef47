"""Titles that are not titles: an author line in the title's face, a body sentence, a
citation key. A weak title falls back to the file name and says so (``title_source``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from papermind.config import IngestSettings
from papermind.domain.works import Person, WorkMetadata
from papermind.ingest import parse_bytes
from papermind.ingest.layout import FlowLine
from papermind.ingest.metadata import front_matter
from papermind.services.exports import citation_key


def _line(text: str, y: float, size: float, *, bold: bool = False, font: str = "Times") -> FlowLine:
    return FlowLine(page=1, text=text, box=(72, y, 500, y + size), size=size, peak=size,
                    bold=bold, font=font)


def test_a_smaller_line_of_names_in_the_title_face_is_the_author_line() -> None:
    lines = [_line("Construction of the Literature Graph in Semantic Scholar", 60, 14.3, bold=True),
             _line("Waleed Ammar, Dirk Groeneveld, Chandra Bhagavatula, Iz Beltagy,", 82, 12,
                   bold=True),
             _line("Zheng Yuan, Madeleine van Zuylen, and Oren Etzioni", 96, 12, bold=True),
             _line("Allen Institute for Artificial Intelligence", 120, 12),
             _line("Abstract", 150, 12, bold=True)]
    meta = front_matter(lines, stop=4, body=11)
    assert meta.title == "Construction of the Literature Graph in Semantic Scholar"
    assert meta.weak is None and meta.title_lines == [0]
    assert meta.authors == ["Waleed Ammar", "Dirk Groeneveld", "Chandra Bhagavatula",
                            "Iz Beltagy", "Zheng Yuan", "Madeleine van Zuylen", "Oren Etzioni"]


def test_a_body_sentence_is_a_weak_title_and_names_no_authors() -> None:
    lines = [_line("order to compute the TED score. Inference timing results for all", 60, 10),
             _line("Hyper Parameter Optimization", 80, 10, bold=True),
             _line("We tuned the learning rate on the development set.", 100, 10)]
    meta = front_matter(lines, stop=3, body=10)
    assert meta.weak is not None and "body text" in meta.weak
    assert meta.authors == [] and meta.title_lines == []


@pytest.mark.parametrize("title", ["2", "smith2020deep", "ref:12"])
def test_a_citation_key_is_a_weak_title(title: str) -> None:
    meta = front_matter([_line(title, 60, 20), _line("Some body text follows here.", 90, 10)],
                        stop=2, body=10)
    assert meta.weak is not None


@pytest.mark.parametrize("title", ["Paper 0", "Llama 2", "GPT-4 Technical Report", "word2vec"])
def test_a_short_title_with_a_number_is_a_title(title: str) -> None:
    meta = front_matter([_line(title, 60, 20), _line("Some body text follows here.", 90, 10)],
                        stop=2, body=10)
    assert meta.weak is None and meta.title == title


def test_a_real_title_at_body_size_in_bold_still_counts() -> None:
    meta = front_matter([_line("Prototype-Driven Learning for Sequence Models", 60, 10, bold=True),
                         _line("Aria Haghighi, Dan Klein", 80, 10)], stop=2, body=10)
    assert meta.weak is None and meta.title == "Prototype-Driven Learning for Sequence Models"


def test_a_citation_key_never_starts_with_a_number() -> None:
    chinese = WorkMetadata(title="题目(中英文题目一致) 字体为 2 号黑体 (全文除特别声明外)")
    assert citation_key(chinese) == "paper"
    assert citation_key(WorkMetadata(title="Attention is all you need", year=2017,
                                     authors=[Person(family="Vaswani", given="Ashish")])).startswith("vaswani2017attention")


def _parse(path: Path) -> object:
    return parse_bytes(path.read_bytes(), path.name, settings=IngestSettings())


def test_shared_pdfs_get_their_titles_or_the_file_name(shared_data: Path) -> None:
    pdfs = shared_data / "pdfs"
    graph = _parse(pdfs / "s2orc_doc2json" / "N18-3011.pdf")
    assert graph.title == "Construction of the Literature Graph in Semantic Scholar"  # type: ignore[attr-defined]
    assert graph.title_source == "first_page"  # type: ignore[attr-defined]
    authors = graph.authors  # type: ignore[attr-defined]
    assert len(authors) >= 20 and {"Waleed Ammar", "Madeleine van Zuylen", "Oren Etzioni"} <= set(authors)

    excerpt = _parse(pdfs / "docling" / "2305.03393v1-pg9.pdf")
    assert excerpt.title == "2305.03393v1-pg9" and excerpt.title_source == "file_name"  # type: ignore[attr-defined]
    assert not any("Optimization" in a for a in excerpt.authors)  # type: ignore[attr-defined]
    assert any("file name stands in" in w for w in excerpt.warnings)  # type: ignore[attr-defined]

    template = _parse(pdfs / "zh" / "cjc_jisuanji_xuebao_sample.pdf")
    assert template.title not in ("2", "")  # type: ignore[attr-defined]
    key = citation_key(WorkMetadata(title=template.title))  # type: ignore[attr-defined]
    assert key != "2" and key[:1].isalpha()


def test_show_says_when_the_file_name_stands_in(shared_data: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    from rich.console import Console

    from papermind.cli.paper_views import print_paper

    excerpt = parse_bytes((shared_data / "pdfs" / "docling" / "2305.03393v1-pg9.pdf").read_bytes(),
                          "2305.03393v1-pg9.pdf", settings=IngestSettings())
    print_paper(Console(width=200), excerpt)
    assert "the file name: no convincing title" in capsys.readouterr().out
