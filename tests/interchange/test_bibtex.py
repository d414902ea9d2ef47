"""BibTeX: `file` fields in JabRef and Better BibTeX forms, broken entries, round trips."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from papermind.domain.works import Person, WorkMetadata
from papermind.interchange.bibtex import (
    escape,
    file_paths,
    metadata_fields,
    parse_fields,
    read_bibtex,
    split_names,
    write_bibtex,
)
from papermind.services.container import Container
from papermind.services.exports import render
from tests.cli.pdf_factory import paper_pdf


def test_file_fields_in_the_forms_reference_managers_write(tmp_path: Path) -> None:
    assert file_paths(":papers/a.pdf:PDF", tmp_path) == [str(tmp_path / "papers" / "a.pdf")]
    assert file_paths("Full Text PDF:/abs/b.pdf:application/pdf", tmp_path) == ["/abs/b.pdf"]
    assert file_paths("/abs/c.pdf", tmp_path) == ["/abs/c.pdf"]  # Better BibTeX / plain path
    assert file_paths(":notes.txt:Text;Preprint:/abs/d.pdf:PDF", tmp_path) == ["/abs/d.pdf"]
    assert file_paths(r"Paper:C\:\\Users\\ada\\e.pdf:PDF", tmp_path)[0].endswith(r"C:\Users\ada\e.pdf")
    assert file_paths("", tmp_path) == [] and file_paths(":slides.pptx:PowerPoint", tmp_path) == []


def test_names_latex_and_institutions() -> None:
    assert split_names(r"M{\"u}ller, Jan and {Google Research and Friends} and Ada Lovelace") == [
        Person(family="Müller", given="Jan"), Person(family="Google Research and Friends"),
        Person(family="Lovelace", given="Ada")]
    assert split_names("Anderson, Sandra") == [Person(family="Anderson", given="Sandra")]


BIB = r"""% a library exported by a reference manager
@inproceedings{lovelace2020jabref,
  title = {Counting Tweets with G{\"o}del \& Friends},
  author = {Lovelace, Ada and Turing, Alan},
  booktitle = {Proceedings of Tests},
  year = {2020},
  doi = {https://doi.org/10.5555/ABC.1},
  keywords = {tweets, nlp},
  groups = {Thesis/Chapter 2},
  file = {:pdfs/a.pdf:PDF}
}

@article{broken2021,
  title = {This entry never closes its title,
  year = {2021}

@article{turing2019betterbibtex,
  title = {Storage Engines Revisited},
  author = {Turing, Alan},
  journal = {Journal of Tests},
  year = {2019},
  eprint = {1504.06236v3},
  archiveprefix = {arXiv},
  file = {__ABS__}
}

@misc{nofile2018,
  title = {A Work We Only Cite},
  author = {Hopper, Grace},
  year = {2018}
}

@article{missing2017,
  title = {Its PDF Was Moved},
  author = {Hopper, Grace},
  file = {:pdfs/gone.pdf:PDF}
}
"""


@pytest.fixture
def bib(tmp_path: Path) -> Path:
    (tmp_path / "pdfs").mkdir()
    paper_pdf(tmp_path / "pdfs" / "a.pdf", "Counting Tweets With Careful Annotation")
    b = paper_pdf(tmp_path / "elsewhere.pdf", "Storage Engines Revisited Once More")
    path = tmp_path / "library.bib"
    path.write_text(BIB.replace("__ABS__", str(b)), encoding="utf-8")
    return path


def test_reader_reports_the_broken_entry_with_its_line_and_keeps_the_rest(bib: Path) -> None:
    parsed = read_bibtex(bib.read_text(), base_dir=bib.parent)
    assert [p.line for p in parsed.problems] == [13]
    assert parsed.problems[0].reason.startswith("line 13:")
    assert [i.key for i in parsed.items] == ["lovelace2020jabref", "turing2019betterbibtex",
                                             "nofile2018", "missing2017"]
    first = parsed.items[0]
    assert first.metadata.title == "Counting Tweets with Gödel & Friends"
    assert first.tags == ["tweets", "nlp"] and first.collections == ["Thesis/Chapter 2"]
    assert parsed.items[1].metadata.arxiv == "1504.06236v3"


def test_import_adds_entries_with_files_and_reports_the_others(box: Container, bib: Path) -> None:
    results = box.imports.import_source("bibtex", bib)
    by_key = {r.key: r for r in results}
    assert by_key["lovelace2020jabref"].status == "added"
    assert by_key["turing2019betterbibtex"].status == "added"
    assert by_key["nofile2018"].status == "skipped"
    assert by_key["missing2017"].status == "failed" and "PDF not found" in by_key["missing2017"].reason
    assert by_key["line 13"].status == "failed" and by_key["line 13"].line == 13
    paper_id = by_key["lovelace2020jabref"].paper_id or ""
    record = box.papers.record(paper_id)
    assert record.title == "Counting Tweets with Gödel & Friends" and record.year == 2020
    assert record.authors == ["Ada Lovelace", "Alan Turing"]
    entry = box.catalog.entry(paper_id)
    assert (entry.source, entry.source_key) == ("bibtex", "lovelace2020jabref")
    assert entry.metadata.doi == "10.5555/abc.1" and entry.metadata.venue == "Proceedings of Tests"
    assert box.catalog.labels_of(paper_id) == {"tags": ["nlp", "tweets"],
                                               "collections": ["Thesis/Chapter 2"]}
    assert box.papers.get(by_key["turing2019betterbibtex"].paper_id or "").arxiv == "1504.06236"
    hits = box.search.search("hash of their bytes", mode="bm25", year_min=2020, year_max=2020)
    assert {h.paper_id for h in hits} == {paper_id}  # re-indexed with the imported year
    again = box.imports.import_source("bibtex", bib)
    assert [r.status for r in again].count("added") == 0 and box.papers.count() == 2


def test_exported_bibtex_parses_back_to_the_same_fields(box: Container, bib: Path) -> None:
    box.imports.import_source("bibtex", bib)
    works = box.exports.works()
    text = render(works, "bibtex")
    parsed = parse_fields(text)
    assert set(parsed) == {"lovelace2020jabref", "turing2019betterbibtex"}  # source keys kept
    for key, metadata in works:
        assert parsed[key] == metadata_fields(metadata)[1]
    assert parsed["lovelace2020jabref"]["title"] == r"Counting Tweets with Gödel \& Friends"
    again = {i.key: i.metadata for i in read_bibtex(text, base_dir=bib.parent).items}
    for key, metadata in works:
        back = again[key]
        assert (back.title, back.authors, back.year, back.venue, back.doi) == (
            metadata.title, metadata.authors, metadata.year, metadata.venue, metadata.doi)


def test_special_characters_and_unbalanced_braces_stay_parseable() -> None:
    meta = WorkMetadata(entry_type="article", title="50% of {tweets} & the #1 user_name",
                        authors=[Person(family="O'Brien", given="Pat"), Person(family="ACME, Inc.")],
                        year=2020, venue="Tests } Journal")
    kind, fields = metadata_fields(meta)
    text = write_bibtex([(kind, "k", fields)])
    assert parse_fields(text)["k"] == fields
    assert escape("a_b") == r"a\_b"
    [item] = read_bibtex(text, base_dir=Path(".")).items
    assert item.metadata.title == "50% of {tweets} & the #1 user_name"
    assert item.metadata.authors == meta.authors
    assert item.metadata.venue == "Tests } Journal"


@pytest.mark.parametrize("title", ["Sets {x | x > 0} and {}", "A } stray { pair", "{", "}{"])
def test_braces_in_a_title_survive_export_and_import(title: str) -> None:
    """Braces were turned into parentheses (or dropped) on the way out."""
    kind, fields = metadata_fields(WorkMetadata(entry_type="article", title=title, year=2020))
    text = write_bibtex([(kind, "k", fields)])
    assert parse_fields(text)["k"]["title"] == fields["title"]
    [item] = read_bibtex(text, base_dir=Path(".")).items
    assert item.metadata.title == title


def test_an_attachment_that_is_a_fifo_folder_or_device_says_so(box: Container,
                                                                tmp_path: Path) -> None:
    """It said "PDF not found" for a path that exists; a FIFO must not block the import."""
    os.mkfifo(tmp_path / "pipe.pdf")
    (tmp_path / "folder.pdf").mkdir()
    (tmp_path / "device.pdf").symlink_to("/dev/null")
    entries = {"pipe": ":pipe.pdf:PDF", "folder": ":folder.pdf:PDF", "device": ":device.pdf:PDF"}
    bib = tmp_path / "odd.bib"
    bib.write_text("".join(f"@article{{{key},\n  title = {{Odd {key}}},\n  year = {{2020}},\n"
                           f"  file = {{{value}}}\n}}\n\n" for key, value in entries.items()),
                   encoding="utf-8")
    by_key = {r.key: r for r in box.imports.import_source("bibtex", bib)}
    assert "is a named pipe (FIFO), not a regular file" in by_key["pipe"].reason
    assert "is a folder, not a file" in by_key["folder"].reason
    assert "is a device, not a regular file" in by_key["device"].reason
    assert all(r.status == "failed" and "not found" not in r.reason for r in by_key.values())
