"""`import zotero` on a data directory with Zotero's real schema: 20 items, 15 with PDFs."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from papermind.errors import InputError
from papermind.interchange.zotero import read_zotero
from papermind.services.container import Container
from tests.interchange.zotero_factory import ZoteroItem, build_zotero

COLLECTIONS = [("C1", "Thesis", None), ("C2", "Chapter 2", "C1"), ("C3", "Reading group", None)]


def zotero_items(pdfs: list[Path]) -> list[ZoteroItem]:
    items = []
    for n in range(20):
        pdf = pdfs[n] if n < 15 else None
        fields = {"title": f"Imported study {n}: methods for item {n}", "date": f"{2001 + n}-05-00 May {2001 + n}",
                  "publicationTitle": "Journal of Tests", "DOI": f"10.5555/PM.{n}"}
        creators = [("Ada", f"Lovelace{n}", 0), ("Alan", "Turing", 0)]
        if n == 3:
            creators.append(("", "Test Consortium", 1))  # one-field (institution) creator
        item = ZoteroItem(key=f"K{n:07d}", item_type="journalArticle" if n % 2 else "conferencePaper",
                          fields=fields, creators=creators, tags=[f"topic{n % 3}", "imported"],
                          collections=["C2"] if n < 5 else (["C3"] if n < 10 else []), pdf=pdf,
                          note="a note only" if n == 16 else None, linked=n == 14)
        items.append(item)
    items[6].fields["extra"] = "arXiv: 1504.06236v2\nsome other note"
    items.append(ZoteroItem(key="KTRASHED", item_type="journalArticle", fields={"title": "Gone"},
                            pdf=pdfs[0], trashed=True))
    return items


@pytest.fixture
def zotero_dir(tmp_path: Path, real_pdfs: list[Path]) -> Path:
    return build_zotero(tmp_path / "Zotero", zotero_items(real_pdfs), COLLECTIONS)


def test_reader_sees_items_attachments_tags_and_collection_paths(zotero_dir: Path,
                                                                 real_pdfs: list[Path]) -> None:
    library = read_zotero(zotero_dir)
    assert library.schema_version == 107
    assert len(library.items) == 20  # the trashed item and attachments/notes are not items
    first = library.items[0]
    assert first.key == "K0000000" and first.metadata.entry_type == "inproceedings"
    assert first.metadata.year == 2001 and first.metadata.doi == "10.5555/PM.0"
    assert [p.family for p in first.metadata.authors] == ["Lovelace0", "Turing"]
    assert first.collections == ["Thesis/Chapter 2"] and first.tags == ["imported", "topic0"]
    assert first.files == [str(zotero_dir / "storage" / "A0000000" / "P07-1088.pdf")]
    assert library.items[14].files == [str(real_pdfs[14])]  # a linked file: its own path
    assert library.items[3].metadata.authors[-1].family == "Test Consortium"
    assert library.items[6].metadata.arxiv == "1504.06236v2"
    assert sum(bool(i.files) for i in library.items) == 15


@pytest.fixture
def linked_base(box: Container, real_pdfs: list[Path]) -> Path:
    """Item 14's linked PDF lies in Zotero's linked-attachment base folder (as set in prefs.js)."""
    box.imports.zotero_base_dir = real_pdfs[14].parent
    return real_pdfs[14].parent


@pytest.mark.slow
def test_import_adds_15_with_metadata_reports_5_and_a_second_run_adds_nothing(
        box: Container, zotero_dir: Path, linked_base: Path) -> None:
    original = hashlib.sha256((zotero_dir / "zotero.sqlite").read_bytes()).hexdigest()
    results = box.imports.import_source("zotero", zotero_dir)
    assert [r.status for r in results].count("added") == 15, [(r.key, r.reason) for r in results]
    skipped = [r for r in results if r.status == "skipped"]
    assert [r.key for r in skipped] == [f"K{n:07d}" for n in range(15, 20)]
    assert all(r.reason == "no PDF attachment" for r in skipped)
    for n, result in enumerate(results[:15]):
        assert result.paper_id is not None
        record = box.papers.record(result.paper_id)
        assert record.title == f"Imported study {n}: methods for item {n}"
        assert record.year == 2001 + n and record.authors[:2] == [f"Ada Lovelace{n}", "Alan Turing"]
        entry = box.catalog.entry(result.paper_id)
        assert (entry.source, entry.source_key) == ("zotero", f"K{n:07d}")
        assert entry.metadata.doi == f"10.5555/pm.{n}" and entry.metadata.venue == "Journal of Tests"
        labels = box.catalog.labels_of(result.paper_id)
        assert labels["tags"] == ["imported", f"topic{n % 3}"]
        assert labels["collections"] == (["Thesis/Chapter 2"] if n < 5 else
                                         ["Reading group"] if n < 10 else [])
    assert box.papers.get(results[6].paper_id or "").arxiv == "1504.06236"
    assert box.papers.count() == 15
    assert len(box.catalog.select(collections=["Thesis"]) or []) == 5  # includes Chapter 2
    assert len(box.catalog.select(tags=["topic1"]) or []) == 5

    again = box.imports.import_source("zotero", zotero_dir)
    assert [r.status for r in again].count("added") == 0
    assert [r.status for r in again].count("exists") == 15 and box.papers.count() == 15
    assert hashlib.sha256((zotero_dir / "zotero.sqlite").read_bytes()).hexdigest() == original


@pytest.mark.slow
def test_an_interrupted_import_resumes_without_redoing_finished_items(
        box: Container, zotero_dir: Path, linked_base: Path) -> None:
    def stop_after_four(done: int, total: int, result: object) -> None:
        if done == 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        box.imports.import_source("zotero", zotero_dir, on_item=stop_after_four)
    assert box.papers.count() == 4
    results = box.imports.import_source("zotero", zotero_dir)
    statuses = [r.status for r in results]
    assert statuses[:4] == ["exists"] * 4 and statuses[4:15] == ["added"] * 11
    assert all(r.reason == "imported before" for r in results[:4])


def test_reads_while_zotero_holds_its_database_locked(zotero_dir: Path) -> None:
    holder = sqlite3.connect(zotero_dir / "zotero.sqlite")
    try:
        holder.execute("BEGIN EXCLUSIVE")
        assert len(read_zotero(zotero_dir).items) == 20
    finally:
        holder.rollback()
        holder.close()


def test_a_folder_without_zotero_sqlite_is_a_clear_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no zotero.sqlite"):
        read_zotero(tmp_path)
    (tmp_path / "zotero.sqlite").write_bytes(b"not a database at all" * 100)
    with pytest.raises(InputError, match="not a Zotero database"):
        read_zotero(tmp_path)
