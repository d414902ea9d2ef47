"""`papermind add` progress (plain lines off a terminal, a bar in one) and dense state in
`list` / `show`."""

from __future__ import annotations

import io
import json
import sqlite3
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.console import Console

from papermind.cli.add_progress import INDEXING, add_progress, embed_line, file_line
from papermind.services.library import AddEvent, AddResult
from tests.support.cli import CliRunner


def papers(folder: Path, n: int) -> Path:
    folder.mkdir()
    for i in range(n):
        (folder / f"p{i}.md").write_text(f"# Paper {i}\n\n## Method\n\nWe study topic {i}.\n")
    return folder


def test_add_of_a_folder_prints_one_plain_line_per_file(cli: CliRunner, tmp_path: Path) -> None:
    result = cli("add", papers(tmp_path / "in", 3))
    assert result.code == 0, result.err
    lines = result.err.strip().splitlines()
    files = [ln for ln in lines if ln.startswith("[")]
    assert [ln.split(":")[0] for ln in files] == ["[1/3] p0.md", "[2/3] p1.md", "[3/3] p2.md"]
    assert all("added in" in ln and "BM25-indexed" in ln for ln in files)
    assert lines[-3].startswith("embedding: 3/3 chunks") and lines[-3].endswith("done")
    assert lines[-2] == INDEXING and lines[-1].startswith("search indexes up to date in")


def test_add_leaves_the_search_indexes_in_step(cli: CliRunner, tmp_path: Path, home: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The first search after a bulk add used to build them (on 243k chunks: 30 s BM25,
    100 s HNSW); add builds them on every core, and a new process only opens them."""
    monkeypatch.setenv("PAPERMIND_SEARCH__ANN_MIN_ROWS", "1")
    monkeypatch.setenv("PAPERMIND_SEARCH__LEXICAL_MIN_ROWS", "0")
    assert cli("add", papers(tmp_path / "in", 3)).code == 0
    log = sqlite3.connect(next(home.glob("*.sqlite3")))
    generation = log.execute("SELECT MAX(generation) FROM search_changes").fetchone()[0]
    sidecars = list(home.glob("*.usearch.json"))
    assert len(sidecars) == 1 and json.loads(sidecars[0].read_text())["generation"] == generation
    stamp = next(home.glob("*.bm25")) / "stamp.json"
    assert json.loads(stamp.read_text())["generation"] == generation
    counted = log.execute("SELECT generation FROM search_coverage_state").fetchall()
    assert counted == [(generation,)]  # and `list`'s dense counts


def test_list_and_show_tell_the_dense_state(cli: CliRunner, tmp_path: Path) -> None:
    assert cli("add", papers(tmp_path / "in", 2)).code == 0
    listed = cli("list", "--json").json()
    assert {p["dense"]["state"] for p in listed} == {"ready"}
    assert all(p["dense"]["chunks"] == p["dense"]["embedded"] > 0 for p in listed)
    table = cli("list").out
    assert "Dense" in table and "ready" in table
    shown = cli("show", listed[0]["id"][:10])
    assert "BM25 and dense ready" in shown.out
    assert cli("show", "--json", listed[0]["id"][:10]).json()["dense"]["state"] == "ready"


def test_the_terminal_bar_prints_file_lines_and_finishes() -> None:
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, width=120)
    done = AddResult("/x/a.pdf", "added", "abc", "A title", seconds=1.5)
    with add_progress(console) as hook:
        hook(AddEvent("start", 0, 2))
        hook(AddEvent("parsing", 0, 2, "/x/a.pdf"))
        hook(AddEvent("file", 1, 2, "/x/a.pdf", done))
        hook(AddEvent("file", 2, 2, "/x/b.pdf", AddResult("/x/b.pdf", "failed", reason="bad")))
        hook(AddEvent("embedding", 5, 10))
        hook(AddEvent("embedding", 10, 10))
        hook(AddEvent("indexing", 0, 1))
        hook(AddEvent("indexing", 1, 1))
    text = buffer.getvalue()
    assert "[1/2] a.pdf: added in 1.5 s" in text and "[2/2] b.pdf: failed - bad" in text


def test_line_texts() -> None:
    assert file_line(1, 9, AddResult("d/x.md", "exists", "id", "T")) == "[1/9] x.md: exists - T"
    assert embed_line(50, 100, 10.0) == "embedding: 50/100 chunks, 5.0 chunks/s, ETA 10 s"


def test_list_lines_up_wide_characters_and_wraps_long_titles(
        cli: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "zh"
    folder.mkdir()
    (folder / "a.md").write_text("# 基于注意力机制的中文文本分类模型研究与实现以及在新闻数据上的评测\n\n"
                                 "## 方法\n\n我们研究分类。\n", encoding="utf-8")
    (folder / "b.md").write_text("# A Short Title\n\n## Method\n\nWe study it.\n")
    assert cli("add", folder).code == 0
    monkeypatch.setenv("COLUMNS", "80")
    lines = [line for line in cli("list").out.splitlines() if line]
    assert lines[0].startswith("ID") and "Dense" in lines[0]
    assert len({cell_len(line) for line in lines}) == 1  # one width: columns line up
    assert len(lines) > 4  # the Chinese title wrapped inside its column
    titles = "".join(line.split(" │ ")[1].strip() for line in lines[2:])
    assert "基于注意力机制的中文文本分类模型研究与实现以及在新闻数据上的评测" in titles


def test_ocr_pages_get_a_plain_line_each() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=False, width=100)
    with add_progress(console) as hook:
        hook(AddEvent("start", 0, 2))
        hook(AddEvent("parsing", 0, 2, "/in/scan.pdf"))
        hook(AddEvent("ocr", 1, 10, "/in/scan.pdf"))
        hook(AddEvent("ocr", 2, 10, "/in/scan.pdf"))
    assert out.getvalue().splitlines() == ["scan.pdf: OCR page 1/10", "scan.pdf: OCR page 2/10"]


def test_a_single_scan_outside_a_terminal_prints_its_pages_only() -> None:
    """One file in a pipe: no per-file or embedding lines (the result is the output), but
    a scan's pages are told as they are read."""
    out = io.StringIO()
    console = Console(file=out, force_terminal=False, width=100)
    with add_progress(console) as hook:
        hook(AddEvent("start", 0, 1))
        hook(AddEvent("parsing", 0, 1, "/in/scan.pdf"))
        hook(AddEvent("ocr", 1, 2, "/in/scan.pdf"))
        hook(AddEvent("ocr", 2, 2, "/in/scan.pdf"))
        hook(AddEvent("embedding", 5, 10))
        hook(AddEvent("indexing", 0, 1))
    assert out.getvalue().splitlines() == ["scan.pdf: OCR page 1/2", "scan.pdf: OCR page 2/2"]
