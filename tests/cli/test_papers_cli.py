"""`papermind parse/add/list/show/remove` through the real entry point."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.pdf_factory import paper_pdf
from tests.support.cli import CliRunner, library_state

PAPER_KEYS = {"title", "authors", "abstract", "pages", "sections", "references", "citations",
              "equations", "captions", "findings"}


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def added_id(cli: CliRunner, path: Path) -> str:
    result = cli("add", path, "--json")
    assert result.code == 0, result.err
    [row] = result.json()
    return str(row["paper_id"])


def test_add_twice_reports_exists(cli: CliRunner, home: Path, tmp_path: Path) -> None:
    paper = write(tmp_path / "notes.md", "# Sparse attention\n\n## Intro\nSome text.\n")
    first = cli("add", paper)
    assert first.code == 0, first.err
    assert "added" in first.out and "Sparse attention" in first.out
    again = cli("--json", "add", paper)
    assert again.code == 0
    [row] = again.json()
    assert row["status"] == "exists" and row["title"] == "Sparse attention"
    ids, files = library_state(home)
    assert ids == [row["paper_id"]] and files == [f"{row['paper_id']}.md"]


def test_add_folder_stores_every_supported_file(cli: CliRunner, home: Path,
                                                tmp_path: Path) -> None:
    folder = tmp_path / "papers"
    write(folder / "a.txt", "First paper\nbody")
    write(folder / "nested" / "b.md", "# Second paper\n\n## Body\ntext")
    write(folder / "skip.csv", "a,b")
    result = cli("add", folder, "--json")
    assert result.code == 0, result.err
    rows = result.json()
    assert sorted(r["title"] for r in rows) == ["First paper", "Second paper"]
    assert {r["status"] for r in rows} == {"added"}
    listing = cli("list", "--json").json()
    assert sorted(r["title"] for r in listing) == ["First paper", "Second paper"]
    assert len(library_state(home)[1]) == 2


def test_partial_failure_exits_non_zero_names_the_file_and_keeps_the_good(
        cli: CliRunner, home: Path, tmp_path: Path) -> None:
    good = write(tmp_path / "good.txt", "A good paper\nbody")
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\x00\x01\x02\xff" * 100)
    result = cli("add", good, bad)
    assert result.code == 2
    lines = result.err.strip().splitlines()  # one progress line per file, then the summary
    assert lines[0].startswith("[1/2] good.txt: added") and lines[1].startswith(
        "[2/2] bad.txt: failed - bad.txt is neither a PDF nor UTF-8 text")
    assert lines[-1] == "error: 1 of 2 files failed (bad.txt); 1 stored or already present"
    assert "failed" in result.out and "added" in result.out
    assert [r["title"] for r in cli("list", "--json").json()] == ["A good paper"]


def test_list_show_remove_by_prefix(cli: CliRunner, home: Path, tmp_path: Path) -> None:
    empty = cli("list")
    assert empty.code == 0 and "library is empty" in empty.err
    paper_id = added_id(cli, write(tmp_path / "p.md", "# A listed paper\n\n## Method\ntext\n"))
    listing = cli("list")
    assert paper_id[:12] in listing.out and "A listed paper" in listing.out
    shown = cli("show", paper_id[:8])
    assert shown.code == 0 and "A listed paper" in shown.out and paper_id in shown.out
    data = cli("show", paper_id[:8], "--json").json()
    assert data["id"] == paper_id and data.keys() >= PAPER_KEYS
    assert Path(data["file"]).read_bytes().startswith(b"# A listed paper")
    removed = cli("remove", paper_id[:8], "--json")
    assert removed.json() == {"removed": paper_id, "title": "A listed paper"}
    assert library_state(home) == ([], [])
    missing = cli("show", paper_id[:8])
    assert missing.code == 3
    assert missing.err.strip().splitlines() == [
        f"error: no paper with id '{paper_id[:8]}' (see `papermind list`)"]


def test_list_and_show_say_when_a_title_is_a_guess(cli: CliRunner, home: Path,
                                                   tmp_path: Path) -> None:
    headed = added_id(cli, write(tmp_path / "h.md", "## A Headed Paper\n\n## Abstract\ntext\n"))
    plain = added_id(cli, write(tmp_path / "plain.txt", "Plain first line\nbody text\n"))
    rows = {line.split()[0]: line for line in cli("list").out.splitlines() if line.split()}
    assert "(title guessed)" in rows[plain[:12]] and "(title guessed)" not in rows[headed[:12]]
    assert "a guess: the first line of text" in cli("show", plain[:8]).out
    assert "guess" not in cli("show", headed[:8]).out
    listed = {row["id"]: row for row in cli("list", "--json").json()}
    assert listed[plain]["title_guessed"] is True and listed[headed]["title_guessed"] is False
    assert cli("show", plain[:8], "--json").json()["title_source"] == "first_line"


def test_home_flag_wins_over_environment(cli: CliRunner, home: Path, tmp_path: Path) -> None:
    other = tmp_path / "other-home"
    paper = write(tmp_path / "x.txt", "Homed paper")
    assert cli("--home", other, "add", paper).code == 0
    assert library_state(other)[0] and library_state(home) == ([], [])
    assert cli("list", "--json").json() == []
    assert len(cli("--home", other, "list", "--json").json()) == 1


def test_parse_json_shape_of_a_pdf(cli: CliRunner, home: Path, tmp_path: Path) -> None:
    pdf = paper_pdf(tmp_path / "paper.pdf", "Content Addressed Paper Storage")
    result = cli("parse", pdf, "--json")
    assert result.code == 0, result.err
    data = result.json()
    assert data.keys() >= PAPER_KEYS
    assert data["title"] == "Content Addressed Paper Storage"
    page = data["pages"][0]
    assert {"number", "width", "height", "lines"} <= page.keys()
    assert (page["number"], round(page["width"]), round(page["height"])) == (1, 612, 792)
    line = page["lines"][0]
    assert {"n", "text", "box"} <= line.keys() and line["n"] == 1
    assert {"x0", "y0", "x1", "y1"} <= line["box"].keys()
    for key, fields in [("sections", {"title", "number", "level", "page", "line"}),
                        ("references", {"key", "raw", "authors", "title", "year", "doi", "arxiv"}),
                        ("citations", {"marker", "page", "line", "reference_keys"}),
                        ("findings", {"kind", "page", "text", "reason"})]:
        assert all(fields <= item.keys() for item in data[key]), key
    assert data["sections"], "the generated paper has numbered sections"
    assert not home.exists(), "parse must not create or touch a library"


def test_parse_human_output_and_global_json(cli: CliRunner, tmp_path: Path) -> None:
    paper = write(tmp_path / "t.md", "# Human readable\n\n## 1 Intro\nHello.\n")
    human = cli("parse", paper)
    assert human.code == 0 and "Human readable" in human.out and "Intro" in human.out
    assert cli("--json", "parse", paper).json()["title"] == "Human readable"


@pytest.mark.parametrize("args", [("show", "zz"), ("remove", "abc"), ("parse", "nope.pdf")])
def test_errors_are_one_line_with_the_table_exit_code(cli: CliRunner, args: tuple[str, ...]) -> None:
    result = cli(*args)
    assert result.code in {2, 3}
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert result.out == ""


def test_default_home_is_dot_papermind(cli: CliRunner, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PAPERMIND_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    assert cli("add", write(tmp_path / "d.txt", "Default home paper")).code == 0
    assert library_state(tmp_path / "user" / ".papermind")[0]


def test_remove_drops_the_cached_page_images(cli: CliRunner, home: Path, tmp_path: Path) -> None:
    from papermind.config import Settings
    from papermind.services.container import Container

    pdf = paper_pdf(tmp_path / "cached.pdf", "A Paper Whose Pages Were Rendered")
    assert isinstance(pdf, Path)
    paper_id = added_id(cli, pdf)
    with Container(Settings(home=home)) as box:
        assert box.page_images.png(paper_id, 1, 1.0).startswith(b"\x89PNG")
    cache = home / "cache" / "pages" / paper_id
    assert cache.is_dir() and any(cache.iterdir())
    assert cli("remove", paper_id[:8]).code == 0
    assert not cache.exists()
