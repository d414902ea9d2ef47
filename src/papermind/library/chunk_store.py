"""Search tables in the library file: chunks, the FTS5 index, cached embeddings, a change log.

Rows of one paper are written in one transaction, so their ids are contiguous (FTS5 can then
restrict a query to one paper by rowid range). Every write appends to ``search_changes`` so a
long-lived in-memory vector index (the API server) notices writes by other processes.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from papermind.db import SqlDatabase
from papermind.domain import Anchor, Chunk, ChunkKind, SectionKind

COMPONENT = "search"
COVERAGE_MIGRATION = """
    CREATE TABLE search_coverage (
        model    TEXT NOT NULL,
        paper_id TEXT NOT NULL,
        chunks   INTEGER NOT NULL,
        embedded INTEGER NOT NULL,
        PRIMARY KEY (model, paper_id)
    );
    CREATE TABLE search_coverage_state (
        model      TEXT PRIMARY KEY,
        generation BIGINT NOT NULL
    );
    """
"""Per-paper dense coverage counts (the same SQL on SQLite and PostgreSQL)."""
FILTER_MIGRATION = """
    CREATE INDEX search_chunks_section ON search_chunks(section_kind);
    CREATE INDEX search_chunks_year ON search_chunks(year);
    """
"""The rows a narrow section or year filter passes, found without reading every chunk row
(an exact dense search the HNSW index cannot serve: 0.7% of 243k chunks took a scan)."""
MIGRATIONS = [
    """
    CREATE TABLE search_chunks (
        id           INTEGER PRIMARY KEY,
        chunk_id     TEXT NOT NULL UNIQUE,
        paper_id     TEXT NOT NULL,
        kind         TEXT NOT NULL,
        section_kind TEXT NOT NULL,
        section      TEXT NOT NULL,
        year         INTEGER,
        text         TEXT NOT NULL,
        anchors      TEXT NOT NULL,
        content_hash TEXT NOT NULL
    );
    CREATE INDEX search_chunks_paper ON search_chunks(paper_id);
    CREATE VIRTUAL TABLE search_fts USING fts5(
        body, tokenize = 'porter unicode61 remove_diacritics 2'
    );
    CREATE VIRTUAL TABLE search_refs_fts USING fts5(
        body, tokenize = 'porter unicode61 remove_diacritics 2'
    );
    CREATE TABLE search_embeddings (
        model        TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        dim          INTEGER NOT NULL,
        vector       BLOB NOT NULL,
        PRIMARY KEY (model, content_hash)
    ) WITHOUT ROWID;
    CREATE TABLE search_terms (
        term TEXT PRIMARY KEY,
        df   INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE search_changes (
        generation INTEGER PRIMARY KEY AUTOINCREMENT,
        paper_id   TEXT NOT NULL
    );
    """,
    # which papers hold a chunk text (``touch``: a vector lands on all of them)
    "CREATE INDEX search_chunks_hash ON search_chunks(content_hash);",
    # dense coverage per paper, counted again only for papers the change log names
    # (library.coverage: `list` joined every chunk row with the embeddings each time)
    COVERAGE_MIGRATION,
    FILTER_MIGRATION,
]
WORD = re.compile(r"[a-z0-9]+")
"""Words counted for document frequencies (ASCII: fast; other words are simply not pruned)."""
CONTENT_FTS = "search_fts"
REFERENCE_FTS = "search_refs_fts"
"""Bibliography chunks have their own FTS table: content search never touches them."""
ALL_PAPERS = "*"
"""Change-log entry meaning 'everything changed' (a rebuild)."""


def fts_table(kind: str) -> str:
    return REFERENCE_FTS if kind == "reference" else CONTENT_FTS


@dataclass(frozen=True)
class StoredChunk:
    """A chunk row as search reads it back."""

    row: int
    chunk_id: str
    paper_id: str
    kind: ChunkKind
    section_kind: SectionKind
    section_path: list[str]
    year: int | None
    text: str
    anchors: list[Anchor]


class ChunkStore:
    """Chunk rows and their FTS5 entries."""

    def __init__(self, db: SqlDatabase) -> None:
        self.db = db
        db.migrate(COMPONENT, MIGRATIONS)

    def replace_paper(self, paper_id: str, chunks: Sequence[Chunk],
                      bodies: Sequence[str]) -> None:
        """Swap the paper's rows for ``chunks`` (``bodies`` = the text FTS5 indexes)."""
        with self.db.transaction() as conn:
            self._delete(paper_id)
            self._count_terms(bodies, +1)
            for chunk, body in zip(chunks, bodies, strict=True):
                cursor = conn.execute(
                    "INSERT INTO search_chunks(chunk_id, paper_id, kind, section_kind, section,"
                    " year, text, anchors, content_hash) VALUES (?,?,?,?,?,?,?,?,?)",
                    (chunk.id, chunk.paper_id, chunk.kind, chunk.section_kind,
                     json.dumps(chunk.section_path), chunk.year, chunk.text,
                     json.dumps([a.model_dump(exclude_defaults=True) for a in chunk.anchors]),
                     chunk.content_hash))
                conn.execute(f"INSERT INTO {fts_table(chunk.kind)}(rowid, body) VALUES (?, ?)",
                             (cursor.lastrowid, body))
            conn.execute("INSERT INTO search_changes(paper_id) VALUES (?)", (paper_id,))

    def unembedded(self, model: str,
                   paper_ids: Sequence[str] | None = None) -> list[tuple[str, str, str]]:
        """(paper_id, content_hash, indexed text) of chunks with no ``model`` vector yet,
        in row order (one entry per distinct hash)."""
        where = "" if paper_ids is None else \
            f" AND c.paper_id IN ({','.join('?' * len(paper_ids))})"
        rows = self.db.query(
            "SELECT c.paper_id, c.content_hash, c.section, c.text FROM search_chunks AS c"
            " WHERE NOT EXISTS (SELECT 1 FROM search_embeddings AS e WHERE e.model = ?"
            f" AND e.content_hash = c.content_hash){where} ORDER BY c.id",
            [model, *(paper_ids or [])])
        seen: dict[str, tuple[str, str, str]] = {}
        for r in rows:
            if r["content_hash"] not in seen:
                path = json.loads(r["section"])
                body = " > ".join(path) + "\n" + r["text"] if path else r["text"]
                seen[r["content_hash"]] = (r["paper_id"], r["content_hash"], body)
        return list(seen.values())

    def touch(self, content_hashes: Sequence[str]) -> None:
        """Log that the chunk texts ``content_hashes`` got vectors, as a change of every paper
        holding one (not only the paper they were embedded for: versions of a work share
        paragraphs), so that long-lived vector indexes reload those papers."""
        if not content_hashes:
            return
        with self.db.transaction() as conn:
            conn.execute(
                "INSERT INTO search_changes(paper_id) SELECT DISTINCT paper_id FROM search_chunks"
                f" WHERE content_hash IN ({','.join('?' * len(content_hashes))})",
                list(content_hashes))

    def remove_paper(self, paper_id: str) -> None:
        with self.db.transaction() as conn:
            self._delete(paper_id)
            conn.execute("INSERT INTO search_changes(paper_id) VALUES (?)", (paper_id,))

    def clear(self) -> None:
        """Drop every chunk (embeddings stay cached)."""
        with self.db.transaction() as conn:
            conn.execute("DELETE FROM search_chunks")
            conn.execute("DELETE FROM search_fts")
            conn.execute("DELETE FROM search_refs_fts")
            conn.execute("DELETE FROM search_terms")
            conn.execute("INSERT INTO search_changes(paper_id) VALUES (?)", (ALL_PAPERS,))

    def _delete(self, paper_id: str) -> None:
        old = self.db.query("SELECT section, text FROM search_chunks WHERE paper_id = ?",
                            (paper_id,))
        self._count_terms([" ".join(json.loads(r["section"])) + " " + r["text"] for r in old], -1)
        for table in (CONTENT_FTS, REFERENCE_FTS):
            self.db.execute(f"DELETE FROM {table} WHERE rowid IN"
                            " (SELECT id FROM search_chunks WHERE paper_id = ?)", (paper_id,))
        self.db.execute("DELETE FROM search_chunks WHERE paper_id = ?", (paper_id,))

    def _count_terms(self, bodies: Sequence[str], sign: int) -> None:
        """Keep per-word document frequencies (lower-cased words, unstemmed)."""
        counts: Counter[str] = Counter()
        for body in bodies:
            counts.update(set(WORD.findall(body.lower())))
        self.db.conn.executemany(
            "INSERT INTO search_terms(term, df) VALUES (?, ?) ON CONFLICT(term)"
            " DO UPDATE SET df = df + excluded.df", [(t, sign * n) for t, n in counts.items()])

    def document_frequencies(self, words: Sequence[str]) -> dict[str, int]:
        marks = ",".join("?" * len(words))
        rows = self.db.query(f"SELECT term, df FROM search_terms WHERE term IN ({marks})",
                             [w.lower() for w in words])
        return {r["term"]: int(r["df"]) for r in rows}

    def fetch(self, rows: Iterable[int]) -> dict[int, StoredChunk]:
        wanted = list(dict.fromkeys(rows))
        found: dict[int, StoredChunk] = {}
        for start in range(0, len(wanted), 500):
            part = wanted[start:start + 500]
            marks = ",".join("?" * len(part))
            for r in self.db.query(f"SELECT * FROM search_chunks WHERE id IN ({marks})", part):
                found[r["id"]] = StoredChunk(
                    row=r["id"], chunk_id=r["chunk_id"], paper_id=r["paper_id"], kind=r["kind"],
                    section_kind=r["section_kind"], section_path=json.loads(r["section"]),
                    year=r["year"], text=r["text"],
                    anchors=[Anchor(**a) for a in json.loads(r["anchors"])])
        return found

    def section_kinds(self, rows: Sequence[int]) -> dict[int, str]:
        marks = ",".join("?" * len(rows))
        found = self.db.query(f"SELECT id, section_kind FROM search_chunks WHERE id IN ({marks})",
                              list(rows))
        return {r["id"]: r["section_kind"] for r in found}

    def paper_ranges(self, paper_ids: Sequence[str]) -> list[tuple[int, int]]:
        """(first, last) row id of each paper that has chunks."""
        marks = ",".join("?" * len(paper_ids))
        rows = self.db.query(f"SELECT MIN(id) AS lo, MAX(id) AS hi FROM search_chunks"
                             f" WHERE paper_id IN ({marks}) GROUP BY paper_id", list(paper_ids))
        return [(r["lo"], r["hi"]) for r in rows]

    def paper_ids(self) -> list[str]:
        return [r[0] for r in self.db.query("SELECT DISTINCT paper_id FROM search_chunks")]

    def count(self) -> int:
        return int(self.db.query("SELECT COUNT(*) FROM search_chunks")[0][0])

    def generation(self) -> int:
        row = self.db.query("SELECT MAX(generation) FROM search_changes")[0][0]
        return int(row or 0)

    def changes_since(self, generation: int) -> tuple[int, set[str]]:
        """The latest generation and the papers changed after ``generation``."""
        rows = self.db.query("SELECT generation, paper_id FROM search_changes"
                             " WHERE generation > ?", (generation,))
        latest = max((r["generation"] for r in rows), default=generation)
        return latest, {r["paper_id"] for r in rows}
