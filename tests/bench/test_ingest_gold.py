"""Quality thresholds of the issue, measured on ../shared/data (skipped where it is absent)."""

from __future__ import annotations

from pathlib import Path

import pytest
from bench.tex_tables import cell_matches, tex_tables

from bench import ingest_gold as q
from papermind.domain.paper import Paper
from papermind.errors import IngestError
from papermind.ingest import parse_file
from tests.support.shared_data import SHARED_DATA

PDFS = SHARED_DATA / "pdfs"


@pytest.fixture(scope="module")
def parsed() -> dict[Path, Paper]:
    """Every PDF under ../shared/data/pdfs, parsed once for all tests of this module."""
    if not PDFS.is_dir():
        pytest.skip(f"shared data not found at {SHARED_DATA}")
    papers = {}
    for path in sorted(PDFS.rglob("*.pdf")):
        try:
            papers[path] = parse_file(path)
        except IngestError as err:  # a PDF without text (one scanned page) is refused, by design
            assert "no usable text" in str(err), f"{path.name}: {err}"
    return papers


def test_every_pdf_parses_with_numbered_boxed_lines(parsed: dict[Path, Paper]) -> None:
    assert len(parsed) >= 40
    with_lines = total = 0
    for paper in parsed.values():
        got, pages = q.pages_with_lines(paper)
        with_lines, total = with_lines + got, total + pages
        for page in paper.pages:
            assert [ln.n for ln in page.lines] == list(range(1, len(page.lines) + 1))
            assert all(ln.box is not None and ln.box.page == page.number for ln in page.lines)
    assert with_lines / total >= 0.95


def test_titles_exact_on_gold(parsed: dict[Path, Paper]) -> None:
    gold = q.gold_titles(PDFS / "science_parse")
    assert len(gold) >= 15
    hits = sum(q.fold(parsed[pdf].title) == q.fold(title) for pdf, title in gold.items())
    assert hits / len(gold) >= 0.94, f"{hits}/{len(gold)}"  # 18/19; the miss is the gold's '?:'
    authors = {pdf.name: parsed[pdf].authors for pdf in gold}
    assert authors["pedersen04.pdf"][0] == "Zoltán Gyöngyi"


def _latex_papers(parsed: dict[Path, Paper]) -> list[tuple[Paper, str, list[tuple[str, str]]]]:
    out = []
    for folder in sorted(p for p in (PDFS / "generated_with_latex").iterdir() if p.is_dir()):
        tex = (folder / "latex" / "template.tex").read_text()
        entries = q.bbl_entries((folder / "latex" / "template.bbl").read_text())
        out.append((parsed[folder / f"{folder.name}.pdf"], tex, entries))
    assert out
    return out


def test_latex_titles_exact(parsed: dict[Path, Paper]) -> None:
    papers = _latex_papers(parsed)
    assert all(q.fold(paper.title) == q.fold(q.tex_title(tex)) for paper, tex, _ in papers)
    assert all(not paper.authors for paper, _, _ in papers)  # anonymous: no title line as author


def test_mapreduce_outline_has_its_real_sections(parsed: dict[Path, Paper]) -> None:
    paper = parsed[PDFS / "science_parse" / "map-reduce.pdf"]
    numbered = [s.number for s in paper.sections if s.number]
    assert numbered == ["1", "2", "2.1", "2.2", "2.3", "3", "3.1", "3.2", "3.3", "3.4", "3.5", "3.6",
                        "4", *[f"4.{i}" for i in range(1, 10)], "5", *[f"5.{i}" for i in range(1, 6)],
                        "6", "6.1", "7", "8"]
    assert all(f.severity == "low" for f in paper.findings)  # white duplicate axis labels


def test_no_sentence_fragment_section_titles_on_science_parse(parsed: dict[Path, Paper]) -> None:
    fragments = [t for path, paper in parsed.items() if path.parent.name == "science_parse"
                 for t in q.fragment_sections(paper)]
    assert fragments == []


def test_tables_as_cells_match_the_latex_tabulars(parsed: dict[Path, Paper]) -> None:
    matched = found = gold = exact = 0
    papers = _latex_papers(parsed)
    for paper, tex, _ in papers:
        tables = tex_tables(tex)
        exact += len(paper.tables) == len(tables)
        for k, rows in enumerate(tables, start=1):
            table = next((t for t in paper.tables if t.number == str(k)), None)
            m, f, g = cell_matches([[c.text for c in r] for r in table.rows] if table else [], rows)
            matched, found, gold = matched + m, found + f, gold + g
    f1 = 2 * matched / (found + gold)
    assert f1 >= 0.90, f"cell F1 {f1:.3f}"
    assert exact / len(papers) >= 0.90


def test_numbered_display_equations_found(parsed: dict[Path, Paper]) -> None:
    found = gold = 0
    for paper, tex, _ in _latex_papers(parsed):
        want = {str(k) for k in range(1, q.tex_equation_count(tex) + 1)}
        found += len(want & {e.label for e in paper.equations if e.label})
        gold += len(want)
    assert gold >= 30 and found / gold >= 0.95, f"{found}/{gold}"
    refs = [r for paper in parsed.values() for r in paper.equation_refs]
    assert len(refs) >= 50 and sum(r.equation_id is not None for r in refs) / len(refs) >= 0.90


def test_sections_found_with_right_level(parsed: dict[Path, Paper]) -> None:
    gold = found = predicted = spurious = 0
    for paper, tex, _ in _latex_papers(parsed):
        score = q.score_sections(paper, q.tex_headings(tex))
        gold, found = gold + score.gold, found + score.found
        predicted, spurious = predicted + score.predicted, spurious + score.spurious
    assert found / gold >= 0.95, f"found {found}/{gold}"
    assert spurious / predicted <= 0.10, f"spurious {spurious}/{predicted}"


def test_reference_counts_match_bbl(parsed: dict[Path, Paper]) -> None:
    papers = _latex_papers(parsed)
    equal = sum(len(paper.references) == len(entries) for paper, _, entries in papers)
    assert equal / len(papers) >= 0.90


def test_cite_occurrences_resolved_to_the_right_entry(parsed: dict[Path, Paper]) -> None:
    correct = total = 0
    for paper, tex, entries in _latex_papers(parsed):
        good, count = q.score_citations(paper, entries, q.tex_citations(tex))
        correct, total = correct + good, total + count
    assert total > 50
    assert correct / total >= 0.90, f"{correct}/{total}"


def test_reference_string_fields_reach_the_target() -> None:
    path = SHARED_DATA / "reference_strings" / "tagged_references_dev.txt"
    if not path.exists():
        pytest.skip(f"shared data not found at {path}")
    authors, titles, n = q.score_reference_strings(path)
    assert n >= 200
    assert authors >= 0.92 and titles >= 0.92  # measured 0.968 / 0.924 (were 0.832 / 0.800)


def test_front_matter_scorers_fold_titles_and_spot_markers_and_headings() -> None:
    assert q.fold_title("Carpe Diem, Seize the “Moment”!") == q.fold_title("carpe diem seize the moment")
    assert q.fold_title("题目 (中英文) 字体为 2 号") == q.fold_title("题目（中英文）字体为2号")
    assert q.fold_title("Sparse Models") != q.fold_title("Sparse Model")
    assert q.marked_authors(["Kalpesh Krishna♠", "Kyle Loα", "Sam Wang1", "Ada Lovelace"]) == [
        "Kalpesh Krishna♠", "Kyle Loα", "Sam Wang1"]
    assert q.heading_authors(["## Yifei Pang", "Abstract", "1 Introduction", "Jane Roe"]) == [
        "## Yifei Pang", "Abstract", "1 Introduction"]
