"""Impact-ordered postings on PostgreSQL: kept in step with the chunk rows, backfilled by
their migration, and ranked with the same BM25 as the exact scan."""

from __future__ import annotations

import pytest

from papermind.library import pg_postings, pg_search
from papermind.library.pg_search import PG_MIGRATIONS, PgChunkStore, term_frequencies
from papermind.library.search import SearchIndex
from papermind.services.storage import open_database
from tests.library.search_fixtures import make_paper

WORDS = ["offensive", "tweets", "annotators", "parser", "beam", "treebank", "attention", "transformer", "encoder", "decoder", "corpus", "labelled", "entity", "relation", "graph", "neural", "sparse", "dense", "retrieval"]


def paper(n: int):
    """Paper ``n``: sentences mixing the vocabulary with varying frequencies and lengths."""
    sentences = [" ".join(WORDS[(n * 7 + i * j) % len(WORDS)] for j in range(3 + (n + i) % 9))
                 for i in range(6)]
    return make_paper([("Body", "method", sentences)], name=f"p{n}", year=2000 + n % 5)


@pytest.fixture
def pg(pg_url):
    db = open_database(pg_url)
    yield db
    db.close()


def postings(db) -> int:
    return int(db.query("SELECT COUNT(*) FROM search_postings")[0][0])


def lexeme_entries(db) -> int:
    return int(db.query("SELECT COUNT(*) FROM search_chunks, jsonb_object_keys(body_tf)")[0][0])


def test_postings_follow_writes_and_failed_writes_leave_none(pg):
    index = SearchIndex(pg, None)
    for n in range(3):
        index.index_paper(paper(n))
    assert postings(pg) == lexeme_entries(pg) > 0
    index.index_paper(paper(1))  # replaced: its old postings deleted, new ones added
    assert postings(pg) == lexeme_entries(pg)
    index.remove_paper(paper(0).id)
    assert postings(pg) == lexeme_entries(pg)
    before = postings(pg)
    with pytest.raises(RuntimeError), pg.transaction():
        index.index_paper(paper(9))
        raise RuntimeError("crash after the chunks")
    assert postings(pg) == before
    index.store.clear()
    assert postings(pg) == 0


def test_ranking_matches_the_exact_scan_and_a_cut_keeps_exact_scores(pg, monkeypatch):
    index = SearchIndex(pg, None)
    for n in range(40):
        index.index_paper(paper(n))
    fulltext = index.fulltext
    queries = ["offensive tweets beam", "sparse dense retrieval graph", "treebank parser"]
    for query in queries:
        fulltext.use_postings = False
        exact = [(h.chunk_id, round(h.score, 6)) for h in index.search(query, mode="bm25", k=8)]
        fulltext.use_postings = True
        assert [(h.chunk_id, round(h.score, 6))
                for h in index.search(query, mode="bm25", k=8)] == exact
        monkeypatch.setattr(pg_postings, "MIN_DEPTH", 3)
        fulltext.postings_budget = 1  # every list cut to 3 postings: each hit scored exactly
        scores = dict(exact)
        cut = index.search(query, mode="bm25", k=3)
        fulltext.postings_budget = 10_000
        assert cut and all(round(h.score, 6) == scores.get(h.chunk_id, round(h.score, 6))
                           for h in cut)
        assert cut[0].chunk_id == exact[0][0]


def test_filtered_search_falls_back_to_the_scan_when_the_cut_lost_rows(pg, monkeypatch):
    index = SearchIndex(pg, None)
    for n in range(20):
        index.index_paper(paper(n))
    index.fulltext.use_postings = False
    exact = [h.chunk_id for h in index.search("offensive tweets", mode="bm25", k=3,
                                               year_min=2004)]
    index.fulltext.use_postings = True
    monkeypatch.setattr(pg_search, "SCAN_ROWS", 0)  # the postings' candidates, however few pass
    monkeypatch.setattr(pg_postings, "MIN_DEPTH", 1)
    index.fulltext.postings_budget = 1
    hits = index.search("offensive tweets", mode="bm25", k=3, year_min=2004)
    assert len(exact) == 3 and [h.chunk_id for h in hits] == exact


def test_a_filter_checked_on_the_best_candidates_first_ranks_as_the_exact_scan(pg, monkeypatch):
    """Wide (two papers excluded) and narrower (one year in five) filters, over the postings'
    candidates: the filter checked on a head of all of them (it fills the pool) or of none
    (every candidate is checked) gives the exact scan's ranking; a narrow filter's own path
    (exact over the rows it passes) does too."""
    index = SearchIndex(pg, None)
    for n in range(40):
        index.index_paper(paper(n))
    for filters in ({"exclude_papers": [paper(0).id, paper(5).id]}, {"year_min": 2004}):
        index.fulltext.use_postings = False
        exact = [(h.chunk_id, round(h.score, 6))
                 for h in index.search("sparse dense retrieval graph", mode="bm25", k=8,
                                       **filters)]
        index.fulltext.use_postings = True
        assert len(exact) == 8
        for scan_rows, share in ((0, 1000), (0, 0), (10_000, 0)):
            monkeypatch.setattr(pg_search, "SCAN_ROWS", scan_rows)
            monkeypatch.setattr(pg_postings, "HEAD_SHARE", share)
            got = [(h.chunk_id, round(h.score, 6))
                   for h in index.search("sparse dense retrieval graph", mode="bm25", k=8,
                                         **filters)]
            assert got == exact, (filters, scan_rows, share)


def test_migration_backfills_postings_of_stored_chunks(pg):
    before = PG_MIGRATIONS.index(pg_postings.MIGRATION)
    pg.migrate("search", PG_MIGRATIONS[:before])
    pg.execute("INSERT INTO search_chunks(chunk_id, paper_id, kind, section_kind, section,"
               " text, anchors, content_hash, body_tf, body_len) VALUES ('c', 'p', 'content',"
               " 'method', '[]', 'beam search', '[]', 'h', ?::jsonb, ?)",
               term_frequencies(["beam search beam"])[0])
    PgChunkStore(pg)
    rows = pg.query("SELECT lexeme, tf FROM search_postings ORDER BY lexeme")
    assert [(r["lexeme"], r["tf"]) for r in rows] == [("beam", 2), ("search", 1)]


def test_rare_lexemes_are_read_whole_and_common_ones_share_the_budget():
    got = pg_postings.depths({"rare": 50, "mid": 4_000, "common": 90_000, "the": 99_000}, 6_050)
    assert got == {"rare": 50, "mid": 2_000, "common": 2_000, "the": 2_000}
    assert pg_postings.depths({"a": 10, "b": 10**6}, 1) == {"a": 10, "b": pg_postings.MIN_DEPTH}
