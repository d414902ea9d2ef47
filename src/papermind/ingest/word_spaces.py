"""Spaces inside a word of a PDF line: closed where the paper itself shows the word whole.

PDFium puts a space where two glyphs stand apart; in letter-spaced or kerned text, a
small-caps word or a word with a subscript it can put one inside a word ('ST G' where the
paper writes 'STG', 'min Sup' for 'minSup'). A space between two letter runs of a line is
removed when the joined word occurs as a word elsewhere in the paper and one of the two
halves never stands alone anywhere in it (only beside the other half) and is no English
word of the shipped list ('a way' stays although 'way' only follows 'a'). Chinese and Japanese
text, digits and a line's hyphenated last word (a split word's first half) are left alone.
Only the text within lines changes: never the lines themselves.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from papermind.i18n.scripts import has_cjk
from papermind.ingest.layout import FlowLine
from papermind.ingest.wordlist import english_words


def close_split_words(lines: Sequence[FlowLine]) -> None:
    """Rewrite the text of ``lines`` (all lines of one paper) in place."""
    counts: Counter[str] = Counter()
    pairs: Counter[tuple[str, str]] = Counter()
    for line in lines:
        keys = [bare_word(w) for w in line.text.split(" ")]
        counts.update(keys)
        pairs.update(zip(keys, keys[1:], strict=False))
    for line in lines:
        line.text = _closed(line.text, counts, pairs)


def _closed(text: str, counts: Counter[str], pairs: Counter[tuple[str, str]]) -> str:
    words = text.split(" ")
    if len(words) < 2 or has_cjk(text):
        return text
    out = [words[0]]
    for i, word in enumerate(words[1:], start=1):
        last = i == len(words) - 1 and word.endswith("-")
        if not last and _one_word(out[-1], word, counts, pairs):
            out[-1] += word
        else:
            out.append(word)
    return " ".join(out)


def _one_word(left: str, right: str, counts: Counter[str], pairs: Counter[tuple[str, str]]) -> bool:
    a, b = bare_word(left), bare_word(right)
    if not (a.isalpha() and b.isalpha() and left[-1:].isalpha() and right[:1].isalpha()):
        return False
    together = pairs[(a, b)]
    lonely = [half for half in (a, b) if counts[half] <= together]
    return counts[a + b] > 0 and any(half not in english_words() for half in lonely)


def bare_word(word: str) -> str:
    """The word without surrounding punctuation, case-folded."""
    start, end = 0, len(word)
    while start < end and not word[start].isalnum():
        start += 1
    while end > start and not word[end - 1].isalnum():
        end -= 1
    return word[start:end].casefold()
