"""Whether a hyphen at a line end only split a word ('evalu-' + 'ation') or is the word's
own hyphen ('self-' + 'attention', 'state-of-the-' + 'art').

The rule, in order (never a space inside a word: a kept hyphen joins without one):

1. the paper writes the hyphenated form on a line of its own: keep the hyphen;
2. the paper writes the joined form: join;
3. the second half starts lower case and the letters either side of the hyphen make a word
   of the shipped English word list ('do-' + 'main-specific' -> 'domain-specific'): join;
4. otherwise keep the hyphen (an unknown word is left as printed, which a search of the
   PDF's text still finds).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from papermind.ingest.layout import FlowLine
from papermind.ingest.wordlist import english_words

_TOKEN = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


class Vocabulary:
    """Word forms a document uses, to decide whether a line-end hyphen belongs to the word.

    'low-' + 'dimensional' keeps its hyphen where the paper writes 'low-dimensional'
    elsewhere; 'bal-' + 'ancing' joins where it writes 'balancing'.
    """

    def __init__(self, words: set[str] | None = None) -> None:
        self.words = words or set()

    @classmethod
    def of(cls, lines: Sequence[FlowLine]) -> Vocabulary:
        """The words of ``lines`` (in reading order), less the halves of words a line-end
        hyphen may have split: a line's hyphenated last word and the next line's first."""
        words: set[str] = set()
        cut = False
        for line in lines:
            tokens = _TOKEN.findall(line.text)
            if cut:
                tokens = tokens[1:]  # may be a second half
            cut = line.text.endswith("-")
            if tokens and cut:
                tokens = tokens[:-1]  # the split word's first half
            words.update(t.casefold() for t in tokens)
        return cls(words)

    def prefers(self, joined: str, hyphenated: str) -> bool | None:
        """True: join, False: keep the hyphen, None: the document does not say."""
        if hyphenated.casefold() in self.words:
            return False
        return True if joined.casefold() in self.words else None


def splits_word(prev: str, nxt: str, vocab: Vocabulary | None = None) -> bool:
    """True when ``prev`` ends with a hyphen that only split a word across lines."""
    if len(prev) < 3 or not prev.endswith("-") or not prev[-2].isalpha() or not nxt:
        return False
    head = _TOKEN.findall(prev.rsplit(" ", 1)[-1])
    tail = _TOKEN.match(nxt)
    if not head or tail is None:
        return False
    first, second = head[-1], tail.group()
    verdict = (vocab or Vocabulary()).prefers(first + second, f"{first}-{second}")
    if verdict is not None:
        return verdict
    if not second[0].islower():
        return False  # 'Un-' + 'MaxEnt': a capital after the hyphen marks a compound
    return (first.rsplit("-", 1)[-1] + second.split("-", 1)[0]).casefold() in english_words()
