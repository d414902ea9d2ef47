"""A space inside a word of a PDF line is closed only on the paper's own evidence."""

from __future__ import annotations

from papermind.ingest.layout import FlowLine
from papermind.ingest.word_spaces import close_split_words


def _closed(*texts: str) -> list[str]:
    lines = [FlowLine(page=1, text=t, n=i) for i, t in enumerate(texts, start=1)]
    close_split_words(lines)
    return [ln.text for ln in lines]


def test_a_half_that_never_stands_alone_joins_the_word_the_paper_writes() -> None:
    assert _closed("the STG strategy.", "so ST G. We now", "uses NomBank and Nom Bank,") == [
        "the STG strategy.", "so STG. We now", "uses NomBank and NomBank,"]


def test_english_words_and_unknown_joins_stay_apart() -> None:
    texts = ("such a way to pack", "away from it", "World Wide Web and a WorldWide sign",
             "the zorbl quax model")  # 'zorblquax' is nowhere in the paper
    assert _closed(*texts) == list(texts)


def test_cjk_digits_and_a_split_words_first_half_are_left_alone() -> None:
    texts = ("表 X 表说明", "表X", "run 12 34 and 1234", "the ST G-", "STG")
    assert _closed(*texts)[:4] == ["表 X 表说明", "表X", "run 12 34 and 1234", "the ST G-"]
