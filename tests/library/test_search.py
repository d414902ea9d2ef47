import numpy as np
import pytest

from papermind.db import Database
from papermind.errors import InputError
from papermind.library.embedders import HashingEmbedder
from papermind.library.search import SearchIndex, SearchOptions, fuse
from tests.library.search_fixtures import make_paper


class CountingEmbedder(HashingEmbedder):
    """Hashing embedder that counts the texts it embedded."""

    def __init__(self) -> None:
        super().__init__(dim=512)
        self.embedded = 0

    def embed_documents(self, texts):
        self.embedded += len(texts)
        return super().embed_documents(texts)


def tweets(name="tweets", year=2019):
    return make_paper([
        ("Introduction", "introduction", ["Offensive content is pervasive in social media."]),
        ("Data collection", "method", ["We collected 14,100 tweets labelled by five annotators.",
                                       ("cap", "Table 2: Distribution of offensive labels.")]),
        ("Results", "results", ["The CNN achieves the best macro F1 of 0.80."]),
    ], name=name, year=year, references=["Zampieri et al. Predicting offensive tweets. 2019."])


def parsing(name="parsing", year=2012):
    return make_paper([
        ("Model", "method", ["A shift-reduce dependency parser with a beam of width eight."]),
        ("Experiments", "experiments", ["We evaluate on the Penn Treebank with labelled "
                                        "attachment score."]),
    ], name=name, year=year)


@pytest.fixture(params=["fts5", "tantivy"])
def lexical(request, library_db):
    """BM25 through FTS5, or through the tantivy index (SQLite only) from the first chunk."""
    if request.param == "tantivy" and library_db.dialect != "sqlite":
        pytest.skip("the tantivy index belongs to the SQLite backend")
    return SearchOptions(lexical_min_rows=0 if request.param == "tantivy" else None)


@pytest.fixture
def index(library_db, lexical):
    """An index on each backend (SQLite, PostgreSQL; on SQLite with each BM25 index): the
    same tests must pass on all."""
    idx = SearchIndex(library_db, CountingEmbedder(), options=lexical)
    idx.index_paper(tweets())
    idx.index_paper(parsing())
    return idx


@pytest.mark.parametrize("mode", ["bm25", "dense", "hybrid"])
def test_each_mode_finds_the_passage_with_anchor(index, mode):
    hits = index.search("How many annotators labelled the tweets?", mode=mode, k=3)
    top = hits[0]
    assert "five annotators" in top.text
    assert top.section == "Data collection" and top.section_kind == "method"
    assert top.anchor is not None and top.anchor.page == 1 and top.anchor.line_start == 4
    assert top.anchor.paper_id == top.paper_id == tweets().id
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_filters_by_paper_section_and_year(index):
    only = index.search("parser treebank tweets annotators", paper_ids=[parsing().id], k=10)
    assert only and {h.paper_id for h in only} == {parsing().id}
    method = index.search("treebank tweets", section_kinds=["experiments"], mode="bm25")
    assert method and all(h.section_kind == "experiments" for h in method)
    recent = index.search("tweets parser treebank", year_min=2015, k=10)
    assert recent and all(h.year == 2019 for h in recent)
    old = index.search("tweets parser treebank", year_max=2015, k=10, mode="dense")
    assert old and all(h.year == 2012 for h in old)


def test_references_only_when_asked(index):
    for mode in ("bm25", "dense", "hybrid"):
        assert all(h.section_kind != "references"
                   for h in index.search("Zampieri predicting offensive tweets", mode=mode))
    refs = index.search("Zampieri", section_kinds=["references"])
    assert refs and refs[0].text.startswith("Zampieri")


def test_captions_are_searchable(index):
    assert index.search("distribution of offensive labels", k=1)[0].text.startswith("Table 2")


def test_bad_queries_are_input_errors(index):
    for call in (lambda: index.search("   "), lambda: index.search("x", mode="fuzzy"),
                 lambda: index.search("x", k=0), lambda: index.search("x" * 5000)):
        with pytest.raises(InputError):
            call()
    assert index.search("zzzqqq", mode="bm25") == []


def test_remove_and_reindex(index):
    index.remove_paper(tweets().id)
    for mode in ("bm25", "dense", "hybrid"):
        assert all(h.paper_id != tweets().id for h in index.search("tweets annotators", mode=mode))
    before = index.embedder.embedded
    assert index.rebuild([tweets(), parsing()]) == (2, 0)  # every embedding cached
    assert index.embedder.embedded == before
    assert index.search("annotators", mode="dense", k=1)[0].paper_id == tweets().id


def test_adding_a_paper_to_a_large_library_embeds_only_it():
    db = Database(":memory:")
    embedder = CountingEmbedder()
    index = SearchIndex(db, embedder)
    papers = [make_paper([("Body", "other", [f"Paper {i} studies topic {i % 37} and {i}x."])],
                         name=f"p{i}") for i in range(1000)]
    index.rebuild(papers)
    assert embedder.embedded == 1000 and index.store.count() == 1000
    assert index.search("topic 5", mode="dense", k=3)  # loads the vector index
    embedder.embedded = 0
    index.index_paper(tweets())
    assert embedder.embedded == 5  # the new paper's chunks only
    assert index.search("five annotators tweets", mode="dense", k=1)[0].paper_id == tweets().id
    index.index_paper(tweets())  # re-indexing unchanged text embeds nothing
    assert embedder.embedded == 5


def test_failed_transaction_leaves_no_trace_in_tables_or_vectors(index):
    assert index.search("beam width", mode="dense", k=1)  # vector index loaded
    with pytest.raises(RuntimeError), index.db.transaction():
        index.index_paper(make_paper([("X", "other", ["Quantum beam splitters."])], name="q"))
        raise RuntimeError("store failed")
    assert index.store.count() == 7
    hits = index.search("quantum beam splitters", mode="dense", k=20)
    assert all("Quantum" not in h.text for h in hits)


def test_vector_index_sees_writes_from_another_connection(tmp_path):
    path = tmp_path / "lib.sqlite3"
    reader = SearchIndex(Database(path), HashingEmbedder())
    writer = SearchIndex(Database(path), HashingEmbedder())
    writer.index_paper(parsing())
    assert reader.search("beam", mode="dense", k=1)[0].paper_id == parsing().id
    writer.index_paper(tweets())
    assert reader.search("five annotators", mode="dense", k=1)[0].paper_id == tweets().id
    writer.remove_paper(tweets().id)
    assert all(h.paper_id != tweets().id for h in reader.search("annotators", mode="dense"))


def test_weighted_rank_fusion():
    a = [(1, 9.0), (2, 8.0), (3, 7.0)]
    b = [(3, 0.9), (4, 0.8)]
    assert [r for r, _ in fuse([a, b], [1.0, 1.0], k=60)][:1] == [3]
    assert [r for r, _ in fuse([a, b], [1.0, 0.01], k=60)][:1] == [1]
    assert [r for r, _ in fuse([a, b], [0.0, 1.0], k=60)][:2] == [3, 4]


def test_no_embedder_means_bm25_for_hybrid_and_an_error_for_dense():
    index = SearchIndex(Database(":memory:"), None, options=SearchOptions(section_priors=False))
    index.index_paper(tweets())
    assert "annotators" in index.search("annotators", k=1)[0].text
    from papermind.errors import ConfigError
    with pytest.raises(ConfigError):
        index.search("annotators", mode="dense")


def test_reranker_reorders_candidates(index):
    class Reverse:
        def rerank(self, query, hits, k):
            return list(reversed(hits))[:k]

    index.reranker = Reverse()
    plain = SearchIndex(index.db, index.embedder).search("tweets", k=30)
    reranked = index.search("tweets", k=2)
    assert [h.chunk_id for h in reranked] == [h.chunk_id for h in reversed(plain)][:2]
    assert np.isfinite([h.score for h in reranked]).all()


def test_document_frequencies_follow_writes_and_prune_keeps_rare_words(index):
    store = index.store
    # chunk counts: 'tweets' in the data chunk and the reference, 'offensive' in three chunks
    assert store.document_frequencies(["Treebank", "tweets"]) == {"treebank": 1, "tweets": 2}
    index.index_paper(tweets(name="tweets-2"))
    assert store.document_frequencies(["tweets"]) == {"tweets": 4}
    index.remove_paper(tweets(name="tweets-2").id)
    assert store.document_frequencies(["tweets", "offensive"]) == {"tweets": 2, "offensive": 3}
    fts = getattr(index.fulltext, "fallback", index.fulltext)  # FTS5 behind tantivy
    fts.postings_budget = 1
    assert fts.prune(["offensive", "treebank", "unseen"]) == ["unseen", "treebank"]
    fts.postings_budget = 0
    assert fts.prune(["offensive tweets"]) == ["tweets"]
    assert fts.prune(["unseen offensive"]) == ["unseen", "offensive"]
    assert index.search("unseen offensive", mode="bm25")


def test_interrupted_rebuild_keeps_old_index_and_new_embeddings(index):
    def papers():
        yield make_paper([("New", "other", ["A brand new passage about lasers."])], name="new")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        index.rebuild(papers())
    assert index.store.count() == 7  # tables untouched
    before = index.embedder.embedded
    assert index.rebuild([make_paper([("New", "other", ["A brand new passage about lasers."])],
                                     name="new")]) == (1, 0)  # its embedding was kept
    assert index.embedder.embedded == before and index.store.count() == 1


def test_section_prior_promotes_the_section_a_question_targets():
    paper = make_paper([("Intro", "introduction", ["The corpus of tweets is described later."]),
                        ("Data", "method", ["The corpus of tweets is described here."])])
    db = Database(":memory:")
    plain = SearchIndex(db, None)
    plain.index_paper(paper)
    question = "Which corpus of tweets is used?"
    assert plain.search(question, mode="bm25")[0].section == "Intro"
    primed = SearchIndex(db, None, options=SearchOptions(section_priors=True))
    assert primed.search(question, mode="bm25")[0].section == "Data"
