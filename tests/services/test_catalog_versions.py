"""Identity beyond the hash: the same paper as two different files is a version, not a twin."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from papermind.domain.works import Person, WorkMetadata
from papermind.services.container import Container
from tests.cli.pdf_factory import paper_pdf
from tests.support.containers import hashing_container

pytestmark = pytest.mark.usefixtures("both_backends")  # SQLite and PostgreSQL



@pytest.fixture
def box(tmp_path: Path) -> Iterator[Container]:
    with hashing_container(tmp_path / "home") as container:
        yield container


def resaved(source: Path, target: Path) -> Path:
    """The same document written again by pdfium: other bytes, so another content hash."""
    document = pdfium.PdfDocument(source.read_bytes())
    buffer = io.BytesIO()
    document.save(buffer, version=17)
    document.close()
    target.write_bytes(buffer.getvalue())
    assert target.read_bytes() != source.read_bytes()
    return target


def test_a_resaved_real_paper_is_linked_as_a_new_version(box: Container, tmp_path: Path,
                                                         shared_data: Path) -> None:
    original = shared_data / "pdfs" / "ai_scientist_fewshot" / "attention.pdf"
    if not original.is_file():
        pytest.skip(f"{original} missing")
    copy = resaved(original, tmp_path / "attention-camera-ready.pdf")
    first, second = box.library.add([original, copy])
    assert (first.status, second.status) == ("added", "added")
    assert first.paper_id != second.paper_id
    assert first.version_of is None and second.version_of == first.paper_id
    assert box.papers.count() == 2  # both kept
    assert box.catalog.versions(first.paper_id or "") == [second.paper_id, first.paper_id]
    assert box.catalog.superseded() == {first.paper_id}  # the newest is the default


def test_a_matching_doi_links_papers_whose_titles_differ(box: Container, tmp_path: Path) -> None:
    a = paper_pdf(tmp_path / "a.pdf", "Learned Index Structures For Range Queries",
                  body=["doi: 10.1145/3183713.3196909", "Abstract", "We learn indexes."])
    b = paper_pdf(tmp_path / "b.pdf", "The Case for Learned Index Structures",
                  body=["https://doi.org/10.1145/3183713.3196909.", "Abstract", "Indexes as models."])
    other = paper_pdf(tmp_path / "c.pdf", "An Unrelated Study of Storage Engines")
    results = box.library.add([Path(str(a)), Path(str(b)), Path(str(other))])
    assert [r.status for r in results] == ["added"] * 3
    assert results[1].version_of == results[0].paper_id and results[2].version_of is None
    assert box.papers.get(results[0].paper_id or "").doi == "10.1145/3183713.3196909"


def test_an_import_that_gives_an_arxiv_id_links_versions_and_the_newest_year_wins(
        box: Container, tmp_path: Path) -> None:
    v1 = box.library.add([Path(str(paper_pdf(tmp_path / "v1.pdf", "Sparse Attention Heads Study")))])[0]
    v2 = box.library.add([Path(str(paper_pdf(tmp_path / "v2.pdf", "Camera Ready Different Title")))])[0]
    assert v2.version_of is None
    meta = WorkMetadata(title="Sparse attention", authors=[Person(family="Lovelace")], arxiv="2101.00001")
    box.catalog.catalog.record(v1.paper_id or "", meta.model_copy(update={"year": 2021}))
    linked = box.catalog.catalog.record(v2.paper_id or "", meta.model_copy(update={"year": 2022}))
    assert linked == v1.paper_id
    assert box.catalog.versions(v1.paper_id or "") == [v2.paper_id, v1.paper_id]
    box.catalog.catalog.record(v1.paper_id or "", meta.model_copy(update={"year": 2023}))
    assert box.catalog.versions(v2.paper_id or "")[0] == v1.paper_id


def test_removing_a_version_leaves_the_other_and_drops_its_catalog_rows(
        box: Container, tmp_path: Path) -> None:
    a = paper_pdf(tmp_path / "a.pdf", "Counting Tweets With Careful Annotation")
    copy = resaved(Path(str(a)), tmp_path / "a2.pdf")
    first, second = box.library.add([Path(str(a)), copy])
    assert second.version_of == first.paper_id
    box.catalog.label("tag", ["tweets"], [second.paper_id or ""])
    box.library.remove(second.paper_id or "")
    assert box.catalog.catalog.get(second.paper_id or "") is None
    assert box.catalog.labels.papers(tags=["tweets"]) == set()
    assert box.catalog.versions(first.paper_id or "") == [first.paper_id]


def test_papers_stored_before_the_catalog_are_backfilled(box: Container, tmp_path: Path) -> None:
    a = box.library.add([Path(str(paper_pdf(tmp_path / "a.pdf", "An Early Stored Paper Title")))])[0]
    box.db.execute("DELETE FROM paper_works")
    assert box.catalog.catalog.get(a.paper_id or "") is None
    assert box.catalog.backfill() == 1
    entry = box.catalog.entry(a.paper_id or "")
    assert entry.metadata.title == "An Early Stored Paper Title"
    assert entry.metadata.authors[0] == Person(family="Lovelace", given="Ada")


def test_title_keys_ignore_case_accents_and_punctuation_but_not_words() -> None:
    from papermind.library.catalog import title_key

    assert title_key("Attention Is All You Need", "Vaswani") == title_key(
        "attention is all you need.", "VASWANI") == "attentionisallyouneed|vaswani"
    assert title_key("Attention Is All You Need", "Shazeer") != title_key(
        "Attention Is All You Need", "Vaswani")
    assert title_key("Short Title", "Lovelace") is None  # too generic to identify a work
    assert title_key("Automated Relational Meta-Learning", "") == "automatedrelationalmetalearning|"
    assert title_key("Automated Learning", "") is None  # anonymous: a longer title is needed
    assert title_key("中山大学硕士学位论文撰写规范与示例", "张三") == "中山大学硕士学位论文撰写规范与示例|张三"


def test_a_library_search_hides_older_versions_but_stays_library_wide(
        box: Container, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The older version is excluded, not every other paper listed: a listed search is exact
    over per-paper rows and never says "no good match"."""
    a = paper_pdf(tmp_path / "a.pdf", "Counting Tweets With Careful Annotation")
    first, second = box.library.add([Path(str(a)), resaved(Path(str(a)), tmp_path / "a2.pdf")])
    other = box.library.add([Path(str(paper_pdf(tmp_path / "c.pdf", "An Unrelated Study of "
                                                "Storage Engines")))])[0]
    asked: list[dict] = []
    search = box.search.index.search
    monkeypatch.setattr(box.search.index, "search",
                        lambda query, **kw: asked.append(kw) or search(query, **kw))
    hits = box.search.search("hash of their bytes", mode="bm25")
    assert asked[-1]["paper_ids"] is None and asked[-1]["exclude_papers"] == [first.paper_id]
    assert hits and first.paper_id not in {h.paper_id for h in hits}
    box.search.search("storage engines", paper_ids=[first.paper_id or "", other.paper_id or ""])
    assert asked[-1]["exclude_papers"] == []  # papers named: each is searched as asked
    assert second.version_of == first.paper_id
