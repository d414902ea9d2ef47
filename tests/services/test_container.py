"""The composition root wires the library to the real parser and the real search index."""

from __future__ import annotations

from pathlib import Path

import pytest

from papermind.config import Settings
from papermind.services.container import Container

pytestmark = pytest.mark.usefixtures("both_backends")  # SQLite and PostgreSQL



@pytest.fixture
def container(tmp_path: Path) -> Container:
    settings = Settings(home=tmp_path / "home")
    settings = settings.model_copy(
        update={"search": settings.search.model_copy(update={"embedder": "hashing"})})
    return Container(settings)


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


PAPER = ("# Curvature stopping\n\n## Method\nWe fit a quadratic to recent validation losses "
         "and stop when its curvature turns positive.\n")


def test_added_papers_are_searchable_and_removal_drops_them(container: Container,
                                                            tmp_path: Path,
                                                            both_backends: str) -> None:
    with container:
        [result] = container.library.add([write(tmp_path / "p.md", PAPER)])
        assert result.status == "added" and result.paper_id
        assert container.settings.db_path.exists() == (both_backends == "sqlite")
        assert (container.settings.home_dir / "files" / f"{result.paper_id}.md").exists()
        hits = container.search.search("quadratic curvature", mode="bm25")
        assert hits and hits[0].paper_id == result.paper_id
        container.library.remove(result.paper_id)
        assert container.search_index.store.count() == 0
        assert container.search.search("quadratic curvature", mode="bm25") == []


def test_failed_indexing_stores_nothing(container: Container, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    index = container.search_index
    store = index.store
    original = store.replace_paper

    def write_then_fail(*args: object, **kwargs: object) -> None:
        original(*args, **kwargs)  # type: ignore[arg-type]
        raise RuntimeError("disk I/O error")

    monkeypatch.setattr(store, "replace_paper", write_then_fail)
    [result] = container.library.add([write(tmp_path / "p.md", PAPER)])
    assert result.status == "failed" and "could not be added" in result.reason
    assert "disk I/O error" not in result.reason  # internals go to the log, not the user
    assert container.papers.count() == 0 and store.count() == 0
    assert container.papers.files.names() == []
    container.close()


def test_close_releases_the_database_and_later_use_reopens(container: Container,
                                                          tmp_path: Path) -> None:
    [result] = container.library.add([write(tmp_path / "p.md", PAPER)])
    db = container.db
    container.close()
    container.close()
    with pytest.raises(Exception, match="closed"):
        db.query("SELECT 1")
    assert [r.id for r in container.library.list()] == [result.paper_id]
    container.close()


def test_listing_and_showing_never_build_the_search_index(container: Container,
                                                          tmp_path: Path) -> None:
    container.library.list()
    assert "search_index" not in vars(container)
    [result] = container.library.add([write(tmp_path / "p.md", PAPER)])
    assert result.paper_id and "search_index" in vars(container)
    container.close()
    container.library.show(result.paper_id)
    assert "search_index" not in vars(container)
    container.close()


def test_index_is_built_outside_the_library_transaction(container: Container,
                                                        tmp_path: Path) -> None:
    [result] = container.library.add([write(tmp_path / "p.md", PAPER)])
    assert result.paper_id
    container.close()
    built_in_transaction: list[bool] = []
    real = Container.search_index.func  # type: ignore[attr-defined]

    def spy(self: Container) -> object:
        built_in_transaction.append(self.db.conn.in_transaction)
        return real(self)

    Container.search_index.func = spy  # type: ignore[attr-defined]
    try:
        container.library.remove(result.paper_id)
    finally:
        Container.search_index.func = real  # type: ignore[attr-defined]
    assert built_in_transaction == [False]
    container.close()
