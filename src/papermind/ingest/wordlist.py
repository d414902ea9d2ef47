"""The English word list that ships with the package (SCOWL via Debian's wamerican and
wbritish; source and licence in ``data/english_words.md``).

The line-end de-hyphenation asks it whether a split word is a word ('evalu-' + 'ation' ->
'evaluation') when the paper itself does not say. Read once, on first use; never downloaded.
"""

from __future__ import annotations

import gzip
from functools import lru_cache
from pathlib import Path

WORDLIST = Path(__file__).parent / "data" / "english_words.txt.gz"


@lru_cache(maxsize=1)
def english_words() -> frozenset[str]:
    """Lower-case English words (letters a-z only)."""
    with gzip.open(WORDLIST, "rt", encoding="ascii") as handle:
        return frozenset(handle.read().split())
