"""SQLite (FTS5) and PostgreSQL score BM25 over the same terms: same rows, same scores."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from papermind.db import Database, SqlDatabase
from papermind.library.chunk_store import CONTENT_FTS
from papermind.library.lexical_terms import TOKENIZE, LexicalTerms, lexical_terms
from papermind.library.search import SearchIndex
from tests.library.search_fixtures import make_paper

PAPERS = [
    make_paper([
        ("Introduction", "introduction", ["Offensive content is pervasive in social media; "
                                          "the offensive tweets were annotated by annotators."]),
        ("Data", "method", ["We collected 14,100 tweets labelled by five annotators.",
                            "A data-driven, state-of-the-art pipeline: the models are trained "
                            "and the model's F1-score is 0.80 on naïve baselines."]),
    ], name="tweets"),
    make_paper([
        ("Model", "method", ["A shift-reduce dependency parser with a beam of width eight; "
                             "parsers and parsing in the Penn Treebank."]),
        ("Results", "results", ["The parser is the best of all the models we trained, and it "
                                "runs faster than the running baselines."]),
    ], name="parsing"),
]
QUERIES = [
    ["annotators", "tweets"], ["models", "model", "trained"], ["the", "of", "and"],
    ["data-driven", "state-of-the-art"], ["F1", "0.80", "14,100"], ["naive", "baselines"],
    ["parsing", "parser", "parsers"], ["running", "runs"], ["nothing", "matches", "zzz"],
]


@pytest.fixture
def both(pg_url: str, tmp_path) -> Iterator[tuple[SearchIndex, SearchIndex]]:
    from papermind.services.storage import open_database

    sqlite, pg = Database(tmp_path / "lib.sqlite3"), open_database(pg_url)
    indexes = (SearchIndex(sqlite, None), SearchIndex(pg, None))
    for index in indexes:
        for paper in PAPERS:
            index.index_paper(paper)
    yield indexes
    for db in (sqlite, pg):
        db.close()


def _by_chunk(index: SearchIndex, words: list[str]) -> dict[str, float]:
    ranked = index.fulltext.search(words, 50)
    chunks = index.store.fetch(row for row, _ in ranked)
    return {chunks[row].chunk_id: score for row, score in ranked}


@pytest.mark.parametrize("words", QUERIES, ids=lambda w: "+".join(w))
def test_sqlite_and_postgres_bm25_agree(both: tuple[SearchIndex, SearchIndex],
                                        words: list[str]) -> None:
    sqlite, pg = (_by_chunk(index, words) for index in both)
    assert sqlite.keys() == pg.keys()
    for chunk_id, score in sqlite.items():
        assert pg[chunk_id] == pytest.approx(score, rel=1e-6, abs=1e-9)
    if words != ["nothing", "matches", "zzz"]:
        assert sqlite  # the query matched something, so the comparison compared scores


def test_terms_are_fts5_porter_terms() -> None:
    terms = LexicalTerms()
    assert terms.terms(["The models were trained on data-driven corpora, naïve 3.5"]) == [
        ["the", "model", "were", "train", "on", "data", "driven", "corpora", "naiv", "3", "5"]]
    assert terms.term("--") == [] and terms.terms([]) == []
    assert lexical_terms() is lexical_terms()


def test_tokenize_setting_is_the_sqlite_index_one(tmp_path) -> None:
    db: SqlDatabase = Database(tmp_path / "lib.sqlite3")
    SearchIndex(db, None)
    sql = db.query("SELECT sql FROM sqlite_master WHERE name = ?", (CONTENT_FTS,))[0][0]
    assert TOKENIZE in sql
    db.close()


def test_postgres_migration_drops_lexemes_of_the_old_tokeniser(pg_url: str) -> None:
    from papermind.library.pg_search import COMPONENT, PG_MIGRATIONS, PgChunkStore
    from papermind.services.storage import open_database

    db = open_database(pg_url)
    db.migrate(COMPONENT, PG_MIGRATIONS[:1])  # a library of the first schema
    db.execute("INSERT INTO search_chunks(chunk_id, paper_id, kind, section_kind, section, text,"
               " anchors, content_hash, body_tf, body_len) VALUES ('c', 'p', 'content', 'other',"
               " '[]', 'tweets', '[]', 'h', '{\"tweet\": 1}', 1)")
    db.execute("UPDATE search_stats SET chunks = 1, tokens = 1 WHERE grp = 'content'")
    PgChunkStore(db)  # migrates: the rows go, to be rebuilt by `papermind reindex`
    assert db.query("SELECT COUNT(*) FROM search_chunks")[0][0] == 0
    assert db.query("SELECT SUM(chunks) FROM search_stats")[0][0] == 0
    index = SearchIndex(db, None)
    index.index_paper(PAPERS[0])
    assert index.fulltext.search(["tweets"], 5)
    db.close()
