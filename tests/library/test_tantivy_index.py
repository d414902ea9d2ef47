"""The tantivy BM25 index stays in step with the SQLite chunk rows (FTS5 = source of truth)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from papermind.db import Database
from papermind.library import tantivy_index
from papermind.library.search import SearchIndex, SearchOptions
from papermind.library.tantivy_index import TantivyFullText
from tests.library.search_fixtures import make_paper
from tests.library.test_search import parsing, tweets

pytest.importorskip("tantivy")
QUERIES = ["annotators labelled tweets", "dependency parser beam", "offensive", "Treebank",
           "Zampieri predicting", "distribution of labels", "lasers"]


def open_index(path: Path, min_rows: int | None = 0) -> SearchIndex:
    return SearchIndex(Database(path), None, options=SearchOptions(lexical_min_rows=min_rows))


def lasers(name: str = "lasers", year: int = 2021):
    return make_paper([("Method", "method", ["A tunable laser cavity with two mirrors."]),
                       ("Results", "results", ["The lasers reached 40 mW at 1550 nm."])],
                      name=name, year=year)


def tantivy_of(index: SearchIndex) -> TantivyFullText:
    assert isinstance(index.fulltext, TantivyFullText)
    return index.fulltext


def rows(index: SearchIndex, query: str, **filters) -> set[str]:
    return {h.chunk_id for h in index.search(query, mode="bm25", k=50, **filters)}


def assert_matches_fts5(index: SearchIndex) -> None:
    """Same matching chunks as FTS5 for every query, and one document per chunk row."""
    fts5 = open_index(index.db.path, min_rows=None)  # type: ignore[arg-type]
    for query in QUERIES:
        assert rows(index, query) == rows(fts5, query), query
        assert rows(index, query, kinds=["reference"]) == \
            rows(fts5, query, kinds=["reference"]), query
    indexes = tantivy_of(index).synced()
    assert indexes is not None
    assert sum(i.searcher().num_docs for i in indexes.values()) == index.store.count()


def test_follows_adds_removals_and_rebuilds(tmp_path: Path) -> None:
    index = open_index(tmp_path / "lib.sqlite3")
    index.index_paper(tweets(), embed=False)
    index.index_paper(parsing(), embed=False)
    assert_matches_fts5(index)
    assert (tmp_path / "lib.sqlite3.bm25" / "stamp.json").is_file()
    index.index_paper(lasers(), embed=False)
    index.index_paper(tweets(), embed=False)  # re-indexed: no duplicates
    assert_matches_fts5(index)
    index.remove_paper(parsing().id)
    assert rows(index, "dependency parser beam") == set()
    assert_matches_fts5(index)
    index.rebuild([parsing(), lasers()])
    assert rows(index, "tweets") == set()
    assert_matches_fts5(index)


def test_filters_by_paper_section_kind_and_year(tmp_path: Path) -> None:
    index = open_index(tmp_path / "lib.sqlite3")
    for paper in (tweets(), parsing(), lasers(year=2024), lasers("undated", year=None)):
        index.index_paper(paper, embed=False)
    fts5 = open_index(tmp_path / "lib.sqlite3", min_rows=None)
    cases = [dict(paper_ids=[lasers().id]), dict(section_kinds=["results"]),
             dict(year_min=2020), dict(year_max=2020), dict(year_min=2013, year_max=2022),
             dict(kinds=["caption"]), dict(kinds=["content", "reference"]),
             dict(paper_ids=[tweets().id], section_kinds=["method"])]
    for filters in cases:
        for query in ["lasers mirrors tweets parser labels offensive", "Zampieri tweets"]:
            assert rows(index, query, **filters) == rows(fts5, query, **filters), filters
    assert rows(index, "lasers", year_max=2030) == rows(index, "lasers", paper_ids=[lasers().id])


def test_chinese_text_is_searched_by_its_segments(tmp_path: Path) -> None:
    index = open_index(tmp_path / "lib.sqlite3")
    index.index_paper(make_paper([("引言", "introduction", [
        "本文提出一种基于注意力机制的中文文本分类模型。",
        "实验在新闻数据集上进行，准确率达到百分之九十五。"])], name="zh"), embed=False)
    hits = index.search("准确率是多少？", mode="bm25", k=3)
    assert hits and "准确率" in hits[0].text
    assert tantivy_of(index).synced() is not None


def test_a_write_the_index_missed_is_replayed(tmp_path: Path) -> None:
    """A crash after the SQLite commit, before the index heard of it: the change log says
    what to replay, in this process or the next."""
    path = tmp_path / "lib.sqlite3"
    index = open_index(path)
    index.index_paper(tweets(), embed=False)
    assert rows(index, "tweets")
    other = open_index(path, min_rows=None)  # another process, FTS5 only: never touches it
    other.index_paper(lasers(), embed=False)
    other.remove_paper(tweets().id)
    assert rows(open_index(path), "lasers") and not rows(open_index(path), "tweets")
    assert rows(index, "lasers") and not rows(index, "tweets")
    assert_matches_fts5(index)


def test_a_commit_without_its_stamp_is_replayed_without_duplicates(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "lib.sqlite3"
    index = open_index(path)
    index.index_paper(tweets(), embed=False)
    assert rows(index, "tweets")
    index.index_paper(lasers(), embed=False)

    def crash(folder: Path, generation: int) -> None:
        raise OSError("killed between the index commit and the stamp")

    monkeypatch.setattr(tantivy_index, "_write_stamp", crash)
    assert rows(index, "lasers")  # FTS5 answered
    assert tantivy_of(index)._indexes is None
    monkeypatch.undo()
    restarted = open_index(path)
    assert_matches_fts5(restarted)


@pytest.mark.parametrize("damage", ["stamp-ahead", "bad-stamp", "no-stamp"])
def test_a_stamp_that_cannot_be_trusted_means_a_rebuild(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "lib.sqlite3"
    index = open_index(path)
    index.index_paper(tweets(), embed=False)
    assert rows(index, "tweets")
    stamp = tmp_path / "lib.sqlite3.bm25" / "stamp.json"
    if damage == "stamp-ahead":  # e.g. the library file was replaced by an older one
        stamp.write_text(json.dumps({"format": tantivy_index.FORMAT, "generation": 10**6}))
    elif damage == "bad-stamp":
        stamp.write_text("{not json")
    else:
        stamp.unlink()
    other = open_index(path, min_rows=None)
    other.remove_paper(tweets().id)
    other.index_paper(parsing(), embed=False)
    assert_matches_fts5(open_index(path))


def test_a_held_writer_lock_falls_back_to_fts5(tmp_path: Path) -> None:
    path = tmp_path / "lib.sqlite3"
    index = open_index(path)
    index.index_paper(tweets(), embed=False)
    assert rows(index, "tweets")
    import tantivy

    holder = tantivy.Index.open(str(tmp_path / "lib.sqlite3.bm25" / "content")).writer(
        15_000_000, 1)  # another process is syncing
    index.index_paper(lasers(), embed=False)
    assert rows(index, "lasers")  # answered by FTS5 meanwhile
    assert tantivy_of(index).synced() is None
    holder.rollback()
    del holder
    assert tantivy_of(index).synced() is not None
    assert_matches_fts5(index)


def test_small_libraries_use_fts5_and_build_nothing(tmp_path: Path) -> None:
    index = open_index(tmp_path / "lib.sqlite3", min_rows=20_000)
    index.index_paper(tweets(), embed=False)
    assert rows(index, "tweets")
    assert not (tmp_path / "lib.sqlite3.bm25").exists()
    assert tantivy_of(index).synced() is None
    memory = SearchIndex(Database(":memory:"), None, options=SearchOptions(lexical_min_rows=0))
    memory.index_paper(tweets(), embed=False)
    assert tantivy_of(memory).synced() is None and rows(memory, "tweets")
