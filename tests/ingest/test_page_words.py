"""Word boxes from PDFium's characters: every drawn word at its box; normalised text
(ligatures) still matched; words whose characters are missing get an estimated box."""

from __future__ import annotations

from pathlib import Path

from papermind.domain import Box, Line
from papermind.ingest import parse_file
from papermind.ingest.page_words import line_words, page_words
from tests.support.reader_paper import drawn_words, reader_pdf


def test_every_drawn_word_gets_its_box(tmp_path: Path) -> None:
    pdf = reader_pdf(tmp_path / "r.pdf")
    paper = parse_file(pdf)
    pages = page_words(pdf, paper.pages)
    assert [p.page for p in pages] == [1, 2]
    for page, words in zip(paper.pages, pages, strict=True):
        assert [(w.line, w.text) for w in words.words] == [
            (ln.n, t) for ln in page.lines for t in ln.text.split()]
        assert all(w.measured for w in words.words)
    got = [w for p in pages for w in p.words if w.text != "References"]
    drawn = [w for w in drawn_words() if w.text != "References"]
    assert len(got) == len(drawn)
    for word, want in zip(got, drawn, strict=True):
        assert word.text == want.text and word.box.page == want.page
        assert abs(word.box.x0 - want.x0) < 0.5 and abs(word.box.x1 - want.x1) < 0.5, want
        assert word.box.y0 <= want.y0 + 0.5 and word.box.y1 >= want.y1 - 0.5, want


def _chars(text: str, x: float = 10.0, width: float = 5.0) -> list[tuple[str, tuple[float, ...]]]:
    out = []
    for ch in text:
        if ch != " ":
            out.append((ch, (x, 20.0, x + width, 30.0)))
        x += width
    return out


LINE_BOX = Box(page=1, x0=10, y0=20, x1=100, y1=30)


def test_a_ligature_glyph_covers_its_letters() -> None:
    line = Line(page=1, n=1, text="an efficient way", box=LINE_BOX)
    chars = _chars("an ef\ufb03cient way")  # one glyph for 'ffi'
    words = line_words(line, chars)  # type: ignore[arg-type]
    assert [w.text for w in words] == ["an", "efficient", "way"]
    assert all(w.measured for w in words)
    assert (words[1].box.x0, words[1].box.x1) == (25.0, 65.0)  # "e" .. "t" as drawn
    assert (words[2].box.x0, words[2].box.x1) == (70.0, 85.0)


def test_words_without_characters_are_estimated_from_the_line() -> None:
    line = Line(page=1, n=1, text="alpha beta", box=LINE_BOX)
    words = line_words(line, _chars("alpha"))  # type: ignore[arg-type]
    assert [w.measured for w in words] == [True, False]
    assert words[1].box.x0 == 10 + 90 * 6 / 10 and words[1].box.x1 == 100
    assert (words[1].box.y0, words[1].box.y1) == (20, 30)


def test_a_right_to_left_line_is_aligned_in_the_pdfs_order() -> None:
    line = Line(page=1, n=1, text="\u05e9\u05dc\u05d5\u05dd \u05e2\u05d5\u05dc\u05dd", box=LINE_BOX)
    logical = "\u05e9\u05dc\u05d5\u05dd\u05e2\u05d5\u05dc\u05dd"
    chars = [(ch, (90.0 - 5 * i - (5 if i > 3 else 0), 20.0, 95.0 - 5 * i - (5 if i > 3 else 0),
                   30.0)) for i, ch in enumerate(logical)]  # drawn from the right
    words = line_words(line, chars)  # type: ignore[arg-type]
    assert all(w.measured for w in words)
    assert (words[0].box.x0, words[0].box.x1) == (75.0, 95.0)  # the first word is rightmost
    assert (words[1].box.x0, words[1].box.x1) == (50.0, 70.0)


def test_a_line_end_hyphen_marker_is_matched_as_the_lines_hyphen() -> None:
    line = Line(page=1, n=1, text="the Frame-", box=Box(page=1, x0=10, y0=10, x1=60, y1=20))
    chars = [(c, (10.0 + 5 * i, 10.0, 15.0 + 5 * i, 20.0)) for i, c in enumerate("the")]
    chars += [(c, (30.0 + 5 * i, 10.0, 35.0 + 5 * i, 20.0)) for i, c in enumerate("Frame\x02")]
    words = line_words(line, chars)
    assert [w.text for w in words] == ["the", "Frame-"]
    assert words[1].box.x1 == 60.0  # the hyphen's own box, not the 'e' before it
