"""Imports stay where the user pointed: attachments only from the library's folders, only
real PDFs, and hostile field values refused or cut per item while the rest goes on."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from papermind.interchange.bibtex import read_bibtex
from papermind.interchange.zotero import read_zotero
from papermind.interchange.zotero_prefs import base_folder
from papermind.services.container import Container
from tests.cli.pdf_factory import paper_pdf
from tests.interchange.zotero_factory import ZoteroItem, build_zotero
from tests.support.cli import CliRunner, cli

__all__ = ["cli"]

SECRET = "PAPERMIND-SECRET-TOKEN-4711"


def secret_file(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "passwd"
    path.write_text(f"root:x:0:0:{SECRET}:/root:/bin/bash\n" * 40, encoding="utf-8")
    return path


def nowhere_in(home: Path, needle: str) -> list[Path]:
    """Files under ``home`` (database, stored originals, indexes) that hold ``needle``."""
    return [p for p in home.rglob("*") if p.is_file() and needle.encode() in p.read_bytes()]


def test_a_linked_text_file_outside_the_zotero_folders_is_nowhere_in_the_library(
        box: Container, tmp_path: Path) -> None:
    good = paper_pdf(tmp_path / "good.pdf", "Counting Tweets With Careful Annotation")
    outside = secret_file(tmp_path / "etc")
    folder = build_zotero(tmp_path / "Zotero", [
        ZoteroItem(key="KGOOD001", item_type="journalArticle", fields={"title": "Good"},
                   pdf=Path(str(good))),
        ZoteroItem(key="KEVIL001", item_type="journalArticle", fields={"title": "Evil"},
                   pdf=outside, linked=True)], [])
    results = {r.key: r for r in box.imports.import_source("zotero", folder)}
    assert results["KGOOD001"].status == "added"
    assert results["KEVIL001"].status == "failed"
    assert "outside the library's folders" in results["KEVIL001"].reason
    again = {r.key: r for r in box.imports.import_source("zotero", folder, allow_outside=True)}
    assert again["KEVIL001"].status == "failed"
    assert again["KEVIL001"].reason.startswith("declared a PDF but the file is text")
    assert box.papers.count() == 1
    assert nowhere_in(box.settings.home_dir, SECRET) == []


def test_a_symlink_in_storage_that_leads_outside_is_refused(box: Container,
                                                            tmp_path: Path) -> None:
    pdf = Path(str(paper_pdf(tmp_path / "p.pdf", "A Paper About Careful Counting")))
    folder = build_zotero(tmp_path / "Zotero", [
        ZoteroItem(key="KLINK001", item_type="journalArticle", fields={"title": "L"}, pdf=pdf)],
        [])
    stored = folder / "storage" / "ALINK001" / "p.pdf"
    stored.unlink()
    stored.symlink_to(secret_file(tmp_path / "etc"))
    [result] = box.imports.import_source("zotero", folder)
    assert result.status == "failed" and "outside the library's folders" in result.reason
    assert nowhere_in(box.settings.home_dir, SECRET) == []


def test_linked_files_below_zoteros_base_folder_from_prefs_js_are_taken(
        box: Container, tmp_path: Path) -> None:
    base = tmp_path / "Papers"
    (base / "sub").mkdir(parents=True)
    paper_pdf(base / "sub" / "a.pdf", "Counting Tweets With Careful Annotation")
    prefs = tmp_path / "profile" / "prefs.js"
    prefs.parent.mkdir()
    prefs.write_text('user_pref("extensions.zotero.dataDir", "/elsewhere");\n'
                     f'user_pref("extensions.zotero.baseAttachmentPath", {json.dumps(str(base))});\n',
                     encoding="utf-8")
    assert base_folder(tmp_path / "Zotero", prefs) == base
    folder = build_zotero(tmp_path / "Zotero", [
        ZoteroItem(key="KREL0001", item_type="journalArticle", fields={"title": "Rel"},
                   pdf=base / "sub" / "a.pdf", linked=True)], [])
    with closing(sqlite3.connect(folder / "zotero.sqlite")) as conn, conn:
        conn.execute("UPDATE itemAttachments SET path = 'attachments:sub/a.pdf'")
    assert read_zotero(folder).items[0].files == ["attachments:sub/a.pdf"]
    box.imports.zotero_prefs = prefs
    [result] = box.imports.import_source("zotero", folder)
    assert result.status == "added", result.reason


def test_a_blob_creator_and_a_5_mb_title_are_one_line_each_and_the_rest_imports(
        box: Container, tmp_path: Path) -> None:
    pdfs = [Path(str(paper_pdf(tmp_path / f"{n}.pdf", f"Paper number {n} on careful counting",
                               body=["Abstract", f"Distinct body {n}."]))) for n in range(3)]
    folder = build_zotero(tmp_path / "Zotero", [
        ZoteroItem(key=f"K000000{n}", item_type="journalArticle", fields={"title": f"T{n}"},
                   creators=[("Ada", f"Lovelace{n}", 0)], pdf=pdfs[n]) for n in range(3)], [])
    with closing(sqlite3.connect(folder / "zotero.sqlite")) as conn, conn:
        conn.execute("UPDATE creators SET firstName = ? WHERE lastName = 'Lovelace1'",
                     (b"\x00\xff" * 100,))
        conn.execute("UPDATE itemDataValues SET value = ? WHERE value = 'T2'", ("X" * 5_000_000,))
        conn.execute("UPDATE itemDataValues SET value = 1234 WHERE value = 'T0'")
    library = read_zotero(folder)
    assert [p.key for p in library.problems] == ["K0000001"]
    assert library.problems[0].reason == (
        "creator 1 (author) first name is binary data (200 bytes), not text")
    results = {r.key: r for r in box.imports.import_source("zotero", folder)}
    assert results["K0000001"].status == "failed"
    assert results["K0000000"].status == "added" and results["K0000000"].title == "1234"
    assert results["K0000002"].status == "added"
    assert "'title' cut from 5,000,000 to 2,000 characters" in results["K0000002"].reason
    assert len(box.papers.record(results["K0000002"].paper_id or "").title) == 2000


def test_bibtex_files_outside_the_bib_folder_need_allow_outside(
        box: Container, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "user"))  # the home folder is allowed too
    paper_pdf(tmp_path / "outside.pdf", "Counting Tweets With Care")
    fake = tmp_path / "bib" / "fake.pdf"
    fake.parent.mkdir()
    fake.write_text(f"not a pdf {SECRET}\n", encoding="utf-8")
    bib = tmp_path / "bib" / "refs.bib"
    bib.write_text("@article{far, title={Far}, file={../outside.pdf}}\n"
                   "@article{fake, title={Fake}, file={fake.pdf}}\n"
                   "@article{huge, title={" + "Y" * 5_000_000 + "}}\n", encoding="utf-8")
    parsed = read_bibtex(bib.read_text(encoding="utf-8"), base_dir=bib.parent)
    assert len(parsed.items[2].metadata.title) == 2000 and parsed.items[2].notes
    results = {r.key: r for r in box.imports.import_source("bibtex", bib)}
    assert results["far"].status == "failed" and "--allow-outside" in results["far"].reason
    assert results["fake"].reason.startswith("declared a PDF but the file is text")
    assert results["huge"].status == "skipped"
    again = {r.key: r for r in box.imports.import_source("bibtex", bib, allow_outside=True)}
    assert again["far"].status == "added"
    assert nowhere_in(box.settings.home_dir, SECRET) == []


def test_cli_import_of_a_hostile_zotero_sqlite_ends_without_a_traceback(
        cli: CliRunner, tmp_path: Path) -> None:
    pdf = Path(str(paper_pdf(tmp_path / "p.pdf", "A Paper About Careful Counting")))
    folder = build_zotero(tmp_path / "Zotero", [
        ZoteroItem(key="KBLOB001", item_type="journalArticle", fields={"title": "B"},
                   creators=[("Ada", "Lovelace", 0)], pdf=pdf),
        ZoteroItem(key="KGOOD001", item_type="journalArticle", fields={"title": "G"}, pdf=pdf)],
        [])
    with closing(sqlite3.connect(folder / "zotero.sqlite")) as conn, conn:
        conn.execute("UPDATE creators SET firstName = ?", (b"\x89PNG",))
    result = cli("import", "zotero", folder)
    assert result.code == 2 and "Traceback" not in result.err + result.out
    assert "1 of 2 items failed" in result.err


def test_the_base_folder_is_found_in_the_profile_whose_data_dir_is_imported(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    for name, data_dir, base in (("a.default", tmp_path / "Other", "/nope"),
                                 ("b.work", tmp_path / "Zotero", str(tmp_path / "Papers"))):
        profile = tmp_path / ".zotero" / "zotero" / name
        profile.mkdir(parents=True)
        (profile / "prefs.js").write_text(
            f'user_pref("extensions.zotero.dataDir", {json.dumps(str(data_dir))});\n'
            f'user_pref("extensions.zotero.baseAttachmentPath", {json.dumps(base)});\n',
            encoding="utf-8")
    assert base_folder(tmp_path / "Zotero") == tmp_path / "Papers"
    assert base_folder(tmp_path / "Elsewhere") is None
