"""A LaTeX project is read inside its folder and within bounds: \\input, \\include and
bibliographies outside it (absolute, ../, links) are not read; fan-outs, huge files and
unclosed .bib entries finish fast."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from papermind.errors import InputError
from papermind.ingest.latex_project import ProjectBounds, read_bib, read_project

SECRET = "TOP-SECRET-LINE"


def _project(tmp_path: Path, main: str) -> Path:
    root = tmp_path / "paper"
    root.mkdir()
    (root / "main.tex").write_text("\\documentclass{article}\n" + main, encoding="utf-8")
    (tmp_path / "outside.tex").write_text(SECRET + "\n", encoding="utf-8")
    (tmp_path / "outside.bib").write_text("@article{leak, title={" + SECRET + "}}\n",
                                          encoding="utf-8")
    return root


def test_inputs_outside_the_project_are_not_read(tmp_path: Path) -> None:
    root = _project(tmp_path, f"\\input{{{tmp_path / 'outside'}}}\n\\input{{../outside}}\n"
                              "\\include{linked}\n\\input{sub/../../outside}\n"
                              "\\bibliography{../outside}\n")
    (root / "linked.tex").symlink_to(tmp_path / "outside.tex")
    project = read_project(root)
    assert all(SECRET not in line.text for line in project.lines)
    assert project.bib == []
    outside = [w for w in project.warnings if "outside the project" in w]
    assert len(outside) == 5, project.warnings


def test_a_link_inside_the_project_to_a_file_inside_is_read(tmp_path: Path) -> None:
    root = _project(tmp_path, "\\input{alias}\n")
    (root / "real.tex").write_text("inside text\n", encoding="utf-8")
    (root / "alias.tex").symlink_to(root / "real.tex")
    assert any("inside text" in ln.text for ln in read_project(root).lines)


def test_a_fan_out_of_inputs_finishes_within_the_file_cap(tmp_path: Path) -> None:
    names = [f"part{i}" for i in range(14)]
    root = _project(tmp_path, "".join(f"\\input{{{n}}}\n" for n in names))
    for name in names:
        others = "".join(f"\\input{{{o}}}\n" for o in names if o != name)
        (root / f"{name}.tex").write_text(f"text of {name}\n{others}", encoding="utf-8")
    started = time.process_time()
    project = read_project(root)
    assert time.process_time() - started < 5
    assert len({(ln.file, ln.line) for ln in project.lines}) <= 15 * 15
    assert any("a project is read up to 200 files" in w for w in project.warnings)


def test_unclosed_bib_entries_parse_in_linear_time() -> None:
    text = "".join(f"@article{{key{i}, title = {{Unclosed {i}\n" for i in range(6000))
    started = time.process_time()
    entries = read_bib(text, "refs.bib")
    assert time.process_time() - started < 2  # quadratic took minutes on a tenth of this
    assert len(entries) == 6000 and entries[-1].source.line == 6000
    assert entries[10].fields["title"] == "Unclosed 10"


def test_a_huge_main_file_is_refused_and_a_huge_input_skipped(tmp_path: Path) -> None:
    bounds = ProjectBounds(max_bytes=2**20)
    root = _project(tmp_path, "\\input{big}\nafter\n")
    (root / "big.tex").write_text("x" * (2**20 + 10), encoding="utf-8")
    project = read_project(root, bounds)
    assert any("big.tex and what follows not read" in w for w in project.warnings)
    assert any(ln.text == "after" for ln in project.lines)
    (root / "main.tex").write_text("y" * (2**20 + 10), encoding="utf-8")
    with pytest.raises(InputError, match="larger than 1 MB"):
        read_project(root, bounds)


def test_many_short_lines_stop_at_the_line_cap(tmp_path: Path) -> None:
    root = _project(tmp_path, "\n" * 5000)
    project = read_project(root, ProjectBounds(max_lines=1000))
    assert len(project.lines) == 1000
    assert sum("1000 lines" in w for w in project.warnings) == 1
