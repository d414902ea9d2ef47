"""Impact-ordered postings for library-wide BM25 on PostgreSQL.

``search_postings`` holds one row per (chunk, lexeme): the group, the lexeme, the chunk row,
its term frequency and length, and an *impact*, the posting's BM25 term weight computed with a
fixed reference length (``REF_LENGTH``). One B-tree, ``(grp, lexeme, impact DESC, chunk)``
covering ``tf`` and ``len``, lets a query read the best postings of each query lexeme by an
index-only scan, whatever the lexeme's document frequency: rare lexemes whole, common ones
cut to a share of the postings budget (``depths``), so the cost of a library-wide query is
bounded by the budget (~20,000 index tuples), where scoring every chunk that matches grows
with the library.

Scores stay FTS5's BM25 with the live statistics (idf from ``search_lexemes``, the group's
current average length): the impact only orders the postings. Candidates get the partial
score of the postings read; the best ``RESCORE`` of them are then scored exactly over every
query lexeme from their ``body_tf`` maps, so a returned row's score is its true BM25. A chunk
that is not among the postings read for any query lexeme is not found: nothing is cut from a
rare lexeme's list, and the chunks cut from a common one are those for which it weighs least
(the usual impact-ordering early termination).

Rows are written and deleted in the transaction that writes the chunk rows. Deletion
recomputes each posting's key (the same deterministic SQL expression), so the index is the
only one the table needs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

K1, B = 1.2, 0.75
REF_LENGTH = 120.0
"""Tokens: a typical chunk body. Orders postings only; scores use the live average length."""
MIN_DEPTH = 200
"""Postings read at least per query lexeme, whatever the budget."""
RESCORE = 100
"""Candidates (at least; 10 x k when larger) scored exactly over every query lexeme."""

IMPACT = (f"(({{tf}})::float8 * {K1 + 1} / (({{tf}})::float8 + {K1}"
          f" * ({1 - B} + {B} * ({{len}})::float8 / {REF_LENGTH})))::real")
_POSTINGS = ("SELECT c.grp, l.key AS lexeme, " + IMPACT.format(tf="l.value", len="c.body_len")
             + " AS impact, c.id AS chunk, (l.value)::int AS tf, c.body_len AS len"
             " FROM search_chunks AS c, jsonb_each_text(c.body_tf) AS l")
MIGRATION = f"""
    CREATE TABLE search_postings (
        grp    TEXT NOT NULL,
        lexeme TEXT NOT NULL,
        impact REAL NOT NULL,
        chunk  BIGINT NOT NULL,
        tf     INTEGER NOT NULL,
        len    INTEGER NOT NULL
    );
    CREATE INDEX search_postings_impact
        ON search_postings (grp, lexeme, impact DESC, chunk) INCLUDE (tf, len);
    INSERT INTO search_postings {_POSTINGS};
"""
"""Migration step: the table, its one index, and the postings of the chunks already stored."""
REBUILD_POSTINGS = f"DELETE FROM search_postings; INSERT INTO search_postings {_POSTINGS};"
"""For a later migration that rewrites ``body_tf``."""


def add_paper(conn: Any, paper_id: str) -> None:
    """Postings of the paper's chunk rows (just inserted, same transaction)."""
    conn.execute(f"INSERT INTO search_postings {_POSTINGS} WHERE c.paper_id = ?", (paper_id,))


REMOVE = (f"DELETE FROM search_postings AS p USING ({_POSTINGS} WHERE c.paper_id = ?) AS d"
          " WHERE p.grp = d.grp AND p.lexeme = d.lexeme AND p.impact = d.impact"
          " AND p.chunk = d.chunk")
"""A paper's postings, each found by its index key (one ``?``: the paper id)."""


def remove_paper(conn: Any, paper_id: str) -> None:
    """Delete the paper's postings (before its chunk rows)."""
    conn.execute(REMOVE, (paper_id,))


def depths(frequencies: dict[str, int], budget: int) -> dict[str, int]:
    """Postings to read per lexeme (lexeme -> document frequency): rarest first, each its
    whole list or an even share of what the budget has left (at least ``MIN_DEPTH``), so
    rare lexemes are never cut and a query reads about ``budget`` postings at most."""
    out: dict[str, int] = {}
    left = budget
    names = sorted(frequencies, key=lambda name: frequencies[name])
    for done, name in enumerate(names):
        out[name] = min(frequencies[name], max(MIN_DEPTH, left // (len(names) - done)))
        left = max(0, left - out[name])
    return out


HEAD_SHARE = 8
"""A filter is checked on the best ``HEAD_SHARE`` x pool candidates first."""


def ranked(lexemes: dict[str, float], depth: dict[str, int], group: str, average: float,
           k: int, *, where: str = "", params: Sequence[object] = ()) -> tuple[str, list[object]]:
    """SQL and parameters of the top ``k`` (row, BM25) for ``lexemes`` (lexeme -> idf) in
    ``group``, reading ``depth[lexeme]`` postings of each; the best ``pool`` of them by
    partial score are scored exactly.

    ``where`` (over ``c``, search_chunks) filters the candidates before the pool is taken.
    Checking a candidate costs a chunk-row lookup, and there are up to the postings budget of
    them, so the filter is checked on the best ``HEAD_SHARE`` x pool first; only when fewer
    than the pool pass there (a narrow filter) is it checked on every one. A wide filter
    (older versions excluded, most years) gets the same pool either way."""
    pool = max(RESCORE, 10 * k)
    partial = _BM25.format(tf="p.tf::float8", len="p.len")
    exact = _BM25.format(tf="t.tf", len="top.body_len")
    if where:
        def passing(candidates: str, gate: str = "") -> str:
            return (f"SELECT c.id FROM {candidates} JOIN search_chunks AS c ON c.id ="
                    f" hits.chunk WHERE {gate}{where} ORDER BY hits.partial DESC, c.id"
                    f" LIMIT {pool}")

        head = (f"(SELECT chunk, partial FROM hits ORDER BY partial DESC, chunk"
                f" LIMIT {HEAD_SHARE * pool}) AS hits")
        best = (f" head AS ({passing(head)}), best AS ((SELECT id FROM head) UNION"
                f" ({passing('hits', f'(SELECT COUNT(*) FROM head) < {pool} AND ')})),")
        params = [*params, *params]
    else:
        best = (" best AS (SELECT hits.chunk AS id FROM hits ORDER BY hits.partial DESC,"
                f" hits.chunk LIMIT {pool}),")
    sql = (
        "WITH q AS (SELECT * FROM unnest(?::text[], ?::float8[], ?::int[])"
        " AS q(lexeme, idf, depth)),"
        f" hits AS (SELECT p.chunk, SUM(q.idf * {partial}) AS partial"
        " FROM q CROSS JOIN LATERAL (SELECT chunk, tf, len FROM search_postings AS p"
        " WHERE p.grp = ? AND p.lexeme = q.lexeme ORDER BY p.impact DESC LIMIT q.depth) AS p"
        f" GROUP BY p.chunk),{best}"
        " top AS (SELECT c.id, c.body_tf, c.body_len FROM best"
        " JOIN search_chunks AS c ON c.id = best.id)"
        f" SELECT top.id, SUM(t.idf * {exact}) AS score FROM top CROSS JOIN LATERAL"
        " (SELECT q.idf, (top.body_tf ->> q.lexeme)::float8 AS tf FROM q) AS t"
        " WHERE t.tf IS NOT NULL GROUP BY top.id ORDER BY score DESC, top.id LIMIT ?")
    args: list[object] = [list(lexemes), list(lexemes.values()),
                          [depth[name] for name in lexemes], average, group, *params,
                          average, k]
    return sql, args


_BM25 = f"{{tf}} * {K1 + 1} / ({{tf}} + {K1} * ({1 - B} + {B} * {{len}} / ?))"
"""FTS5's BM25 term weight without the idf (one ``?``: the average length)."""
