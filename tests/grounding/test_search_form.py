"""The plain-search form quotes are checked in, and the guarantee on real PDFs: every word
of every parsed line is found in the page's PDFium text under that form."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from papermind.grounding import QuoteLocator
from papermind.grounding.search_form import found_in, search_form
from papermind.ingest import parse_file
from papermind.ingest.wordlist import english_words


@pytest.mark.parametrize(("text", "form"), [
    ("e\ufb03cient \ufb01nal", "efficient final"),  # ligatures
    ("eval\ufffe\r\nuation and evalu-\nation", "evaluation and evaluation"),  # line-end hyphens
    ("state-of-the-\nart", "stateoftheart"),
    ("Frame\x02work", "Framework"),  # PDFium's U+0002 line-end hyphen, no break after it
    ("Gr\u00a8unwald and Zolt\u00b4an", "Grunwald and Zoltan"),  # TeX's spacing accents
    ("Gr\u00fcnwald and Zolt\u00e1n", "Grunwald and Zoltan"),
    ("  many \t spaces\r\n here ", "many spaces here"),
    ("a line's first half: repre-", "a line's first half: repre"),
    ("pre- and post-training, 3-4 runs", "pre- and posttraining, 3-4 runs"),
])
def test_search_form_steps(text: str, form: str) -> None:
    assert search_form(text) == form


def test_a_split_word_is_not_found_where_the_page_has_it_whole() -> None:
    page = "The di\ufffe\r\nrected graph of en-\ntities, a Frame\x02work"
    assert found_in("directed graph of entities, a Framework", page)
    assert not found_in("di rected graph", page)
    assert not found_in("Frame work", page)


PDFS = ["science_parse/bohnet09.pdf", "science_parse/P07-1088.pdf", "s2orc_doc2json/N18-3011.pdf",
        "ai_scientist_fewshot/attention.pdf"]
_WORD = re.compile(r"^\W*([^\W\d_]{3,})\W*$")


def _whole(form: str, text: str, *, open_left: bool, open_right: bool) -> bool:
    """``form`` occurs in ``text`` not glued to a letter or digit on either side (a side may
    stay open: a line-end word's first half, a line's first word, maybe a second half)."""
    left = "" if open_left else r"(?<![^\W_])"
    right = "" if open_right else r"(?![^\W_])"
    return re.search(left + re.escape(form) + right, text) is not None


@pytest.mark.parametrize("name", PDFS)
def test_every_english_word_of_every_line_is_in_the_pdfium_page_text(shared_data: Path,
                                                                      name: str) -> None:
    path = shared_data / "pdfs" / name
    if not path.is_file():
        pytest.skip(f"{name} not in the shared data")
    paper = parse_file(path)
    document = pdfium.PdfDocument(path)
    words = english_words()
    checked, missing, other, other_missing = 0, [], 0, 0
    for page in paper.pages:
        text = search_form(document[page.number - 1].get_textpage().get_text_range())
        for line in [*page.lines, *page.furniture]:
            tokens = line.text.split()
            for i, word in enumerate(tokens):
                last_cut = i == len(tokens) - 1 and word.endswith("-")
                found = _whole(search_form(word), text, open_left=i == 0,
                               open_right=last_cut)
                match = _WORD.match(word)
                if match and match.group(1).casefold() in words:
                    checked += 1
                    if not found:
                        missing.append(f"p{page.number} l{line.n}: {word!r} in {line.text!r}")
                else:
                    other, other_missing = other + 1, other_missing + (not found)
    assert checked > 1000 and not missing, missing[:10]
    assert other_missing <= 0.03 * other  # symbols and sub/superscripts of formulas


QUOTE_PDFS = ["science_parse/P07-1088.pdf", "s2orc_doc2json/N18-3011.pdf",
              "s2orc_doc2json/2020.acl-main.207.pdf", "ai_scientist_fewshot/attention.pdf"]


@pytest.mark.parametrize("name", QUOTE_PDFS)
def test_every_located_quote_is_found_in_the_pdfium_page_text(shared_data: Path, name: str) -> None:
    """Spans of paragraphs on one page, located: the text shown (``matched_text``) is in the
    page's PDFium text under the search form (split words and kept hyphens would fail it).
    A few may not be: a span across a formula's sub/superscripts, or across a jump where
    PDFium's stream order differs from the reading order."""
    path = shared_data / "pdfs" / name
    if not path.is_file():
        pytest.skip(f"{name} not in the shared data")
    paper = parse_file(path)
    document = pdfium.PdfDocument(path)
    texts = {n: document[n - 1].get_textpage().get_text_range() for n in range(1, len(document) + 1)}
    locator = QuoteLocator(paper)
    rng = random.Random(45)
    paragraphs = [p for p in paper.paragraphs if len(p.segments) >= 3
                  and len({s.page for s in p.segments}) == 1 and len(p.text.split()) >= 20]
    shown = []
    for para in rng.sample(paragraphs, min(25, len(paragraphs))):
        words = para.text.split()
        start = rng.randint(0, len(words) - 12)
        evidence = locator.locate(" ".join(words[start:start + 12]))
        if evidence.anchor is not None and evidence.anchor.page_end is None:
            shown.append((evidence.anchor.page, evidence.matched_text))
    assert len(shown) >= 10
    missing = [text for page, text in shown if not found_in(text, texts[page])]
    assert len(missing) <= 0.12 * len(shown), missing
