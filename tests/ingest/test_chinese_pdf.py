"""Chinese born-digital PDFs: title, headings, line joining, full-width forms, citations."""

import unicodedata

import pytest

from papermind.ingest import parse_file
from tests.ingest.cjk_pdf import (
    BODY,
    REFERENCES,
    SECTIONS,
    TITLE,
    chinese_paper_pdf,
    truetype_cjk_font,
)

FONTS = [pytest.param(False, id="cid-font"),
         pytest.param(True, id="embedded-truetype", marks=pytest.mark.skipif(
             truetype_cjk_font() is None,
             reason="no TrueType CJK font (apt-get install fonts-wqy-zenhei)"))]


@pytest.fixture(params=FONTS)
def paper(request, tmp_path):
    return parse_file(chinese_paper_pdf(tmp_path / "zh.pdf", embedded=request.param))


def test_title_and_sections_with_levels(paper):
    assert paper.title == TITLE
    got = [(s.title, s.level) for s in paper.sections]
    assert ("摘要", 1) in got
    for _, level, title in SECTIONS:
        assert (title, level) in got
    kinds = {s.title: s.kind for s in paper.sections}
    assert kinds["引言"] == "introduction" and kinds["参考文献"] == "references"


def test_lines_join_without_spaces_and_full_width_digits_fold(paper):
    joined = next(p.text for p in paper.paragraphs if p.text.startswith("近年来"))
    folded = "".join(unicodedata.normalize("NFKC", ch) if 0xFF01 <= ord(ch) <= 0xFF5E else ch
                     for ch in BODY)  # full-width forms, one character for one
    assert joined == folded  # no space at any of the line breaks
    assert "95.3%" in joined and "2.1" in joined


def test_block_offsets_map_back_to_lines(paper):
    block = next(p for p in paper.paragraphs if p.text.startswith("近年来"))
    lines = {(ln.page, ln.n): ln.text for page in paper.pages for ln in page.lines}
    for seg in block.segments:
        assert block.text[seg.start:seg.end] == lines[(seg.page, seg.line)][seg.line_start:seg.line_end]


def test_references_and_chinese_citations_resolve(paper):
    assert len(paper.references) == len(REFERENCES)
    assert paper.references[0].year == 2020
    markers = {c.marker: c.reference_keys for c in paper.citations}
    assert any(keys == ["1"] for marker, keys in markers.items() if marker == "[1]")
    author_year = [keys for marker, keys in markers.items() if "张三" in marker]
    assert author_year and author_year[0] == [paper.references[0].key]
