"""The add pipeline: store and BM25-index first, embed in batches across papers after;
interrupting an `add` of a folder and running it again adds the rest and re-embeds nothing."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from papermind.config import Settings
from papermind.library.chunking import content_hash
from papermind.library.embedders import HashingEmbedder
from papermind.library.search import SearchIndex
from papermind.services.container import Container
from papermind.services.library import AddEvent

WORDS = ("graph", "protein", "galaxy", "kernel", "tweet", "parser", "enzyme", "quasar",
         "lattice", "neuron")


class RecordingEmbedder(HashingEmbedder):
    """Hashing vectors; remembers every text it embedded and every batch size."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.batches: list[int] = []

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        self.texts.extend(texts)
        self.batches.append(len(texts))
        return super().embed_documents(texts)


class Interrupt(Exception):
    pass


def folder_of_papers(root: Path, n: int = 30) -> Path:
    folder = root / "papers"
    folder.mkdir()
    for i in range(n):
        topic = f"{WORDS[i % 10]} {WORDS[(i * 3 + 1) % 10]} study {i}"
        body = "\n\n".join(f"## Part {j}\n\nWe study the {topic} with method {j} and result "
                           f"{i * 7 + j}." for j in range(3))
        (folder / f"paper{i:02d}.md").write_text(f"# A {topic}\n\n{body}\n")
    return folder


@pytest.fixture
def box(tmp_path: Path) -> Container:
    settings = Settings(home=tmp_path / "home")
    settings.search.embedder = "hashing"
    container = Container(settings)
    embedder = RecordingEmbedder()
    index = SearchIndex(container.db, embedder)
    assert index.cache is not None
    index.cache.batch_size = 8
    container.__dict__["search_index"] = index
    return container


def embedder_of(box: Container) -> RecordingEmbedder:
    embedder = box.search_index.embedder
    assert isinstance(embedder, RecordingEmbedder)
    return embedder


def interrupt_after(stage: str, count: int):
    seen = Counter[str]()

    def hook(event: AddEvent) -> None:
        seen[event.stage] += 1
        if event.stage == stage and seen[stage] >= count:
            raise Interrupt(stage)
    return hook


def test_bm25_before_embedding_and_batches_span_papers(box: Container, tmp_path: Path) -> None:
    folder = folder_of_papers(tmp_path, 6)
    stages: list[str] = []
    box.library.add([folder], on_event=lambda e: stages.append(e.stage))
    # every file is stored and indexed before the first embedding
    assert stages.index("embedding") > max(i for i, s in enumerate(stages) if s == "file")
    batches = embedder_of(box).batches
    assert batches[:-1] and set(batches[:-1]) == {8}  # full batches: chunks of several papers
    ids = [r.id for r in box.library.list()]
    assert {c.state for c in box.library.coverage(ids).values()} == {"ready"}


@pytest.mark.parametrize("stage,count", [("file", 12), ("embedding", 3)])
def test_interrupted_add_resumes_and_reembeds_nothing(box: Container, tmp_path: Path,
                                                      stage: str, count: int) -> None:
    folder = folder_of_papers(tmp_path, 30)
    with pytest.raises(Interrupt):
        box.library.add([folder], on_event=interrupt_after(stage, count))
    stored = len(box.library.list())
    assert stored == (12 if stage == "file" else 30)
    if stage == "file":  # stored papers are BM25-searchable before any vector exists
        assert embedder_of(box).texts == []
        assert box.search_index.search("lattice", mode="bm25", k=1)
    stages: list[str] = []
    again = box.library.add([folder], on_event=lambda e: stages.append(e.stage))
    assert Counter(r.status for r in again) == +Counter(exists=stored, added=30 - stored)
    assert stages[-2:] == ["indexing", "indexing"]  # even when only vectors were left to do
    texts = embedder_of(box).texts
    assert len(texts) == len(set(texts))  # nothing embedded twice
    ids = [r.id for r in box.library.list()]
    coverage = box.library.coverage(ids)
    assert len(ids) == 30 and {c.state for c in coverage.values()} == {"ready"}
    assert len(texts) == box.search_index.store.count()  # every chunk text is distinct here
    stages.clear()
    assert box.library.add([folder], on_event=lambda e: stages.append(e.stage))
    assert embedder_of(box).texts == texts and "indexing" not in stages  # a third run: no-op


def test_coverage_shows_pending_until_embedded(box: Container, tmp_path: Path) -> None:
    folder = folder_of_papers(tmp_path, 3)
    with pytest.raises(Interrupt):
        box.library.add([folder], on_event=interrupt_after("embedding", 1))
    ids = [r.id for r in box.library.list()]
    states = {c.state for c in box.library.coverage(ids).values()}
    assert "pending" in states
    assert box.library.embed_pending() > 0
    assert {c.state for c in box.library.coverage(ids).values()} == {"ready"}


def test_unembedded_texts_hash_to_their_content_hash(box: Container, tmp_path: Path) -> None:
    box.library.add([folder_of_papers(tmp_path, 2)], on_event=interrupt_after("start", 99))
    box.search_index.store.db.execute("DELETE FROM search_embeddings")
    pending = box.search_index.store.unembedded(embedder_of(box).name)
    assert pending and all(content_hash(text) == h for _, h, text in pending)


def test_a_single_upload_is_embedded_at_once(box: Container) -> None:
    result = box.library.add_bytes(b"# Quasar lattices\n\nWe study quasar lattices.\n", "q.md")
    assert result.status == "added" and result.paper_id
    assert box.library.coverage([result.paper_id])[result.paper_id].state == "ready"
    hits = box.search_index.search("quasar lattices", mode="dense", k=1)
    assert hits and hits[0].paper_id == result.paper_id
