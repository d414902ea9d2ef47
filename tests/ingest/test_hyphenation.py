"""The line-end hyphen rule: join only on evidence (the paper, then the word list), keep the
hyphen otherwise, and never leave a space inside a word."""

from __future__ import annotations

import pytest

from papermind.ingest.hyphenation import Vocabulary, splits_word
from papermind.ingest.layout import FlowLine
from papermind.ingest.normalize import clean_line, join_lines


def _lines(*texts: str) -> list[FlowLine]:
    return [FlowLine(page=1, text=clean_line(t), n=i) for i, t in enumerate(texts, start=1)]


def _joined(*texts: str) -> str:
    lines = _lines(*texts)
    return join_lines(lines, Vocabulary.of(lines))[0]


@pytest.mark.parametrize(("prev", "nxt", "joins"), [
    ("the Frame-", "work of", True),  # the word list has 'framework'
    ("a careful eval-", "uation", True),
    ("a do-", "main-specific template", True),  # 'domain' + its own compound hyphen
    ("a state-of-the-", "art model", False),  # 'theart' is no word
    ("the English-", "to-German task", False),
    ("the Un-", "MaxEnt model", False),  # a capital after the hyphen: a compound
    ("the zorbl-", "quaxian layer", False),  # unknown: left as printed
    ("x = 3-", "4 runs", False),
])
def test_the_word_list_decides_where_the_paper_does_not(prev: str, nxt: str, joins: bool) -> None:
    assert splits_word(prev, nxt, Vocabulary()) is joins


def test_the_papers_own_forms_outrank_the_word_list() -> None:
    assert _joined("we use self-attention here;", "with self-", "attention layers") == (
        "we use self-attention here; with self-attention layers")
    # 'co-operation' is in the paper, though the word list has 'cooperation'
    assert _joined("co-operation helps.", "More co-", "operation") == (
        "co-operation helps. More co-operation")
    # 'zorblquax' is the paper's own word (not in the word list): joined
    assert _joined("a zorblquax model.", "The zorbl-", "quax is") == "a zorblquax model. The zorblquax is"


def test_a_kept_hyphen_joins_without_a_space() -> None:
    text = _joined("the zorbl-", "quaxian layer and the Frame-", "work")
    assert text == "the zorbl-quaxian layer and the Framework"
    assert " quaxian" not in text and "Frame work" not in text


def test_the_vocabulary_leaves_out_the_halves_of_split_words() -> None:
    vocab = Vocabulary.of(_lines("We study zorbl-", "quax and the Frame-", "work today"))
    assert "zorbl" not in vocab.words and "quax" not in vocab.words and "work" not in vocab.words
    assert {"we", "study", "and", "the", "today"} <= vocab.words
