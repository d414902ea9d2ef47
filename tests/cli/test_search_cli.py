from pathlib import Path

from tests.support.cli import CliRunner

PAPER_A = """Offensive Language in Tweets

Abstract
We study offensive language on social media.

1 Data
We collected 14,100 tweets annotated by five annotators.

2 Results
The CNN achieves the best macro F1 of 0.80.
"""
PAPER_B = """Fast Dependency Parsing

1 Model
A shift-reduce parser with a beam of width eight.
"""


def _library(cli: CliRunner, tmp_path: Path) -> tuple[str, str]:
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text(PAPER_A)
    b.write_text(PAPER_B)
    added = cli("add", a, b, "--json")
    assert added.code == 0, added.err
    ids = {Path(r["path"]).name: r["paper_id"] for r in added.json()}
    return ids["a.txt"], ids["b.txt"]


def test_search_json_rows_with_anchor(cli: CliRunner, tmp_path: Path) -> None:
    a, _ = _library(cli, tmp_path)
    result = cli("search", "how many annotators labelled the tweets", "--json", "--k", "2")
    assert result.code == 0, result.err
    rows = result.json()
    assert 1 <= len(rows) <= 2
    top = rows[0]
    assert set(top) >= {"paper_id", "chunk_id", "score", "text", "section", "anchor"}
    assert top["paper_id"] == a and "five annotators" in top["text"]
    assert top["anchor"]["page"] == 1 and top["anchor"]["line_start"] >= 1
    assert top["anchor"]["line_end"] >= top["anchor"]["line_start"]


def test_search_modes_paper_filter_and_table(cli: CliRunner, tmp_path: Path) -> None:
    a, b = _library(cli, tmp_path)
    for mode in ("bm25", "dense", "hybrid"):
        rows = cli("search", "parser beam tweets", "--mode", mode, "--paper", b[:8],
                   "--json").json()
        assert rows and {r["paper_id"] for r in rows} == {b}
    table = cli("search", "macro F1")
    assert table.code == 0 and "0.80" in table.out and "p. 1" in table.out
    assert cli("search", "zzzqqqxxx", "--mode", "bm25").out.strip() == "no good match"


def test_bad_arguments_exit_with_input_error(cli: CliRunner, tmp_path: Path) -> None:
    _library(cli, tmp_path)
    assert cli("search", "x", "--mode", "fuzzy").code == 2
    assert cli("search", "x", "--section", "preface").code == 2
    assert cli("search", "   ").code == 2
    missing = cli("search", "x", "--paper", "ffffffff")
    assert missing.code == 3


def test_reindex_reuses_embeddings(cli: CliRunner, tmp_path: Path) -> None:
    _library(cli, tmp_path)
    result = cli("reindex", "--json")
    assert result.code == 0, result.err
    assert result.json()["papers"] == 2 and result.json()["embedded"] == 0
    assert result.json()["chunks"] >= 3
    assert "annotators" in cli("search", "annotators", "--json").json()[0]["text"]


def test_search_help_lists_options(cli: CliRunner) -> None:
    result = cli("search", "--help")
    for option in ("--paper", "--k", "--mode", "--section", "--json"):
        assert option in result.out


def test_hits_show_the_papers_title(cli: CliRunner, tmp_path: Path) -> None:
    a, _ = _library(cli, tmp_path)
    result = cli("search", "how many annotators labelled the tweets", "--k", "1")
    assert result.code == 0, result.err
    assert "Offensive Language in Tweets" in result.out and a[:12] in result.out
    rows = cli("search", "how many annotators labelled the tweets", "--json", "--k", "1").json()
    assert rows[0]["title"] == "Offensive Language in Tweets"
