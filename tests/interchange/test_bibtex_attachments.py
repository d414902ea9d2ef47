"""BibTeX attachments as reference managers write them: each attachment tried in order, URLs
passed over with a reason, JabRef's file directory and absolute paths under the user's home
taken by default, system paths and non-PDFs still refused, summaries that count exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from papermind.interchange.bibtex import file_directories, file_paths
from papermind.services.container import Container
from tests.cli.pdf_factory import paper_pdf
from tests.support.cli import CliRunner, cli

__all__ = ["cli"]


def pdf(path: Path, title: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    paper_pdf(path, title)
    return path


@pytest.fixture
def user_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "user"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    return home


def test_a_url_attachment_stays_a_url_and_the_next_one_is_a_path(tmp_path: Path) -> None:
    field = r"arXiv:http\://arxiv.org/pdf/1312.6114v10:PDF;Local:papers/kingma.pdf:PDF"
    assert file_paths(field, tmp_path) == ["http://arxiv.org/pdf/1312.6114v10",
                                           str(tmp_path / "papers" / "kingma.pdf")]
    text = ("@Comment{jabref-meta: fileDirectory:pdfs;}\n"
            "@Comment{jabref-meta: fileDirectory-ada-laptop:/home/ada/Papers;}\n")
    assert file_directories(text, tmp_path) == [tmp_path / "pdfs", Path("/home/ada/Papers")]


def test_jabref_url_then_pdf_imports_the_pdf(box: Container, tmp_path: Path,
                                             user_home: Path) -> None:
    bib = tmp_path / "lib" / "refs.bib"
    pdf(tmp_path / "lib" / "papers" / "kingma.pdf", "Auto-Encoding Variational Bayes")
    bib.write_text("@article{kingma, title={Auto-Encoding Variational Bayes}, year={2014},\n"
                   r"  file={arXiv:http\://arxiv.org/pdf/1312.6114v10:PDF;"
                   ":papers/kingma.pdf:PDF}}\n"
                   "@article{web, title={Only Online}, file={:https\\://x.org/a.pdf:PDF}}\n",
                   encoding="utf-8")
    results = {r.key: r for r in box.imports.import_source("bibtex", bib)}
    assert results["kingma"].status == "added", results["kingma"].reason
    assert results["kingma"].file.endswith("kingma.pdf")
    assert "URL attachment not fetched: http://arxiv.org/pdf/1312.6114v10" in results[
        "kingma"].reason
    assert results["web"].status == "skipped" and "not fetched" in results["web"].reason


def test_file_directory_and_home_paths_are_taken_system_paths_are_not(
        box: Container, tmp_path: Path, user_home: Path) -> None:
    pdf(tmp_path / "store" / "a.pdf", "Attachments In A File Directory")
    pdf(user_home / "Zotero" / "b.pdf", "Attachments Under The Home Folder")
    pdf(tmp_path / "elsewhere" / "c.pdf", "Attachments Somewhere Else")
    bib = tmp_path / "lib" / "refs.bib"
    bib.parent.mkdir()
    bib.write_text("@Comment{jabref-meta: fileDirectory:../store;}\n"
                   "@article{a, title={A}, file={:a.pdf:PDF}}\n"
                   f"@article{{b, title={{B}}, file={{{user_home / 'Zotero' / 'b.pdf'}}}}}\n"
                   f"@article{{c, title={{C}}, file={{{tmp_path / 'elsewhere' / 'c.pdf'}}}}}\n"
                   "@article{d, title={D}, file={/etc/hostname.pdf;/etc/passwd:PDF}}\n",
                   encoding="utf-8")
    results = {r.key: r for r in box.imports.import_source("bibtex", bib)}
    assert results["a"].status == "added", results["a"].reason
    assert results["b"].status == "added", results["b"].reason
    assert results["c"].status == "failed" and "--allow-outside" in results["c"].reason
    assert results["d"].status == "failed"


def test_the_summary_counts_what_happened(cli: CliRunner, tmp_path: Path,
                                          user_home: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{gone, title={Gone}, file={missing.pdf}}\n"
                   "@article{bare, title={No File}}\n", encoding="utf-8")
    result = cli("import", "bibtex", bib)
    assert result.code == 2
    assert "1 of 2 items failed (0 added, 0 already in the library, 1 skipped)" in result.err
    assert "the others were imported" not in result.err
