"""One tokenisation for BM25 on every backend: the terms SQLite FTS5's ``porter unicode61
remove_diacritics 2`` tokenizer makes of a text (the tokenizer of the SQLite search tables).

Backends that score BM25 outside FTS5 (PostgreSQL's lexeme maps, or any engine fed
pre-tokenised text) index and query these terms, so that every backend ranks by the same
words: PostgreSQL's own ``to_tsvector('english')`` drops stopwords and splits hyphenated
words and numbers differently, which moved QASPER results by a question in thirteen.

The terms come from FTS5 itself (an in-memory table and its ``fts5vocab`` instance view),
so they agree with the SQLite index exactly, stemmer quirks included.
"""

from __future__ import annotations

import sqlite3
import threading
from collections import Counter
from collections.abc import Sequence

TOKENIZE = "porter unicode61 remove_diacritics 2"
"""The FTS5 tokenizer of ``search_fts`` / ``search_refs_fts`` (library/chunk_store.py)."""
_BATCH = 500


class LexicalTerms:
    """Texts -> their BM25 terms, in order (thread-safe; one in-memory SQLite)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(":memory:", check_same_thread=False,
                                     isolation_level=None)
        self._conn.execute(f"CREATE VIRTUAL TABLE doc USING fts5(body, tokenize = '{TOKENIZE}')")
        self._conn.execute("CREATE VIRTUAL TABLE vocab USING fts5vocab(doc, instance)")

    def terms(self, texts: Sequence[str]) -> list[list[str]]:
        """Each text's terms in reading order (a term per token, repeats kept)."""
        out: list[list[str]] = []
        for start in range(0, len(texts), _BATCH):
            out.extend(self._batch(texts[start:start + _BATCH]))
        return out

    def counts(self, texts: Sequence[str]) -> list[Counter[str]]:
        """Each text's term frequencies."""
        return [Counter(terms) for terms in self.terms(texts)]

    def term(self, word: str) -> list[str]:
        """The terms of one query word (usually one; none for punctuation)."""
        return self.terms([word])[0]

    def _batch(self, texts: Sequence[str]) -> list[list[str]]:
        found: list[list[str]] = [[] for _ in texts]
        with self._lock:
            self._conn.execute("BEGIN")
            try:
                self._conn.executemany("INSERT INTO doc(rowid, body) VALUES (?, ?)",
                                       [(n, t) for n, t in enumerate(texts)])
                rows = self._conn.execute(
                    "SELECT doc, term FROM vocab ORDER BY doc, offset").fetchall()
            finally:
                self._conn.execute("ROLLBACK")
        for doc, term in rows:
            found[int(doc)].append(str(term))
        return found


_SHARED: LexicalTerms | None = None
_SHARED_LOCK = threading.Lock()


def lexical_terms() -> LexicalTerms:
    """The process's tokeniser (made on first use)."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None:
            _SHARED = LexicalTerms()
        return _SHARED
