"""tag, collection, import and export commands, and --tag/--collection on list, search, ask."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from papermind.interchange.bibtex import parse_fields
from tests.cli.pdf_factory import paper_pdf
from tests.cli.test_ask import PAPERS, cite_first_with, judge, use
from tests.support.cli import CliRunner


@pytest.fixture
def library(cli: CliRunner, tmp_path: Path) -> dict[str, str]:
    for name, text in PAPERS.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    result = cli("add", tmp_path / "olid.txt", tmp_path / "recipes.txt", "--json")
    assert result.code == 0, result.err
    ids = {Path(r["path"]).name: r["paper_id"] for r in result.json()}
    assert cli("tag", ids["olid.txt"][:8], "tweets", "offensive").code == 0
    assert cli("collection", "Thesis/Chapter 2", ids["olid.txt"][:8]).code == 0
    assert cli("collection", "Reading group", ids["olid.txt"], ids["recipes.txt"]).code == 0
    return ids


def test_list_filters_by_tag_and_collection(cli: CliRunner, library: dict[str, str]) -> None:
    listed = cli("list", "--tag", "tweets", "--json").json()
    assert [r["id"] for r in listed] == [library["olid.txt"]]
    assert [r["id"] for r in cli("list", "--collection", "thesis", "--json").json()] == [
        library["olid.txt"]]  # sub-collections count, names match in any case
    assert len(cli("list", "--collection", "Reading group", "--json").json()) == 2
    nothing = cli("list", "--tag", "recipes")
    assert nothing.code == 2 and "no paper matches tag 'recipes'" in nothing.err
    tags = cli("tag", "--list", "--json").json()
    assert tags == [{"name": "offensive", "papers": 1}, {"name": "tweets", "papers": 1}]
    assert cli("tag", library["olid.txt"], "offensive", "--remove", "--json").json()["removed"] == 1
    shown = cli("show", library["olid.txt"][:8], "--json").json()
    assert shown["tags"] == ["tweets"] and shown["collections"] == ["Reading group", "Thesis/Chapter 2"]


def test_search_and_ask_are_limited_to_the_filtered_papers(
        cli: CliRunner, library: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    hits = cli("search", "dataset", "--mode", "bm25", "--tag", "tweets", "--json").json()
    assert hits and {h["paper_id"] for h in hits} == {library["olid.txt"]}
    both = cli("search", "dataset", "--mode", "bm25", "--collection", "Reading group", "--json")
    assert {h["paper_id"] for h in both.json()} == set(library.values())
    use(monkeypatch, {"distiller": [{"quotes": []}], "answerer": [cite_first_with("14,100")],
                      "checker": [judge()]})
    report = cli("ask", "How many tweets?", "--collection", "Thesis", "--json")
    assert report.code == 0, report.err
    assert report.json()["paper_ids"] == [library["olid.txt"]]
    assert cli("ask", "How many tweets?", "--tag", "nope").code == 2


def test_export_formats_and_selection(cli: CliRunner, library: dict[str, str], tmp_path: Path) -> None:
    bib = cli("export", "--tag", "tweets")
    assert bib.code == 0, bib.err
    [entry] = parse_fields(bib.out).values()
    assert entry["title"].startswith("OLID")
    out = tmp_path / "all.json"
    assert cli("export", "--format", "csl-json", "--out", out).code == 0
    assert len(json.loads(out.read_text())) == 2
    ris = cli("export", library["recipes.txt"][:8], "--format", "ris")
    assert ris.out.startswith("TY  - GEN") and ris.out.count("ER  - ") == 1
    assert cli("export", "--format", "endnote").code == 2


def test_export_report_gives_the_cited_entries(cli: CliRunner, tmp_path: Path) -> None:
    body = ["Abstract", "We cite one work [1] and mention another.", "References",
            "[1] A. Vaswani. Attention is all you need. In NeurIPS, 2017.",
            "[2] J. Devlin. BERT: pre-training of deep transformers. In NAACL, 2019."]
    pdf = paper_pdf(tmp_path / "p.pdf", "A Reviewed Paper About Citations", body=body)
    [added] = cli("add", pdf, "--json").json()
    report = {"kind": "review", "paper_id": added["paper_id"], "comments": [
        {"references": [{"cited": "[1]", "resolved": True, "entry_key": "1"},
                        {"cited": "Smith", "resolved": False, "entry_key": None}]}]}
    path = tmp_path / "report.json"
    path.write_text(json.dumps(report))
    result = cli("export", "--report", path)
    assert result.code == 0, result.err
    [(key, fields)] = parse_fields(result.out).items()
    assert key.startswith("vaswani2017") and "Attention" in fields["title"]
    path.write_text("{}")
    assert cli("export", "--report", path).code == 2


def test_import_bibtex_cli_reports_each_item_and_exits_2_on_a_failure(
        cli: CliRunner, tmp_path: Path) -> None:
    paper_pdf(tmp_path / "a.pdf", "Counting Tweets With Careful Annotation")
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{good, title={Counting Tweets}, author={Lovelace, Ada},"
                   " year={2020}, file={:a.pdf:PDF}}\n\n@article{bad, title={never closed,\n",
                   encoding="utf-8")
    result = cli("import", "bibtex", bib, "--json")
    assert result.code == 2 and "1 of 2 items failed" in result.err
    rows = {r["key"]: r for r in result.json()}
    assert rows["good"]["status"] == "added" and rows["line 3"]["line"] == 3
    assert cli("import", "mendeley", bib).code == 2
    assert cli("import", "zotero", tmp_path / "nowhere").code == 2


def test_add_reports_a_new_version(cli: CliRunner, tmp_path: Path) -> None:
    a = paper_pdf(tmp_path / "a.pdf", "Counting Tweets With Careful Annotation")
    b = paper_pdf(tmp_path / "b.pdf", "Counting Tweets with careful annotation.",
                  body=["Abstract", "A second, revised version."])
    first, second = cli("add", a, b, "--json").json()
    assert second["version_of"] == first["paper_id"]
    assert [r["id"] for r in cli("list", "--json").json()] == [second["paper_id"]]
    assert len(cli("list", "--all-versions", "--json").json()) == 2
    hits = cli("search", "revised version", "--mode", "bm25", "--json").json()
    assert hits and {h["paper_id"] for h in hits} == {second["paper_id"]}
    older = cli("search", "hash of their bytes", "--mode", "bm25", "--json").json()
    assert older == []  # only the older version says it: the default version is searched
    explicit = cli("search", "hash of their bytes", "--mode", "bm25", "--paper",
                   first["paper_id"], "--json").json()
    assert {h["paper_id"] for h in explicit} == {first["paper_id"]}
