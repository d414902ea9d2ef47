"""The shipped English word list: present, plain, and documented with its licence."""

from __future__ import annotations

from papermind.ingest.wordlist import WORDLIST, english_words


def test_the_word_list_ships_common_and_academic_words() -> None:
    words = english_words()
    assert 50_000 < len(words) < 100_000
    assert {"framework", "evaluation", "directed", "authorship", "entities", "coherent"} <= words
    assert all(w.isascii() and w.isalpha() and w.islower() for w in words)


def test_the_word_list_names_its_source_and_licence() -> None:
    notes = (WORDLIST.parent / "english_words.md").read_text(encoding="utf-8")
    assert "SCOWL" in notes and "Permission to use, copy, modify" in notes
    assert WORDLIST.stat().st_size < 250_000
