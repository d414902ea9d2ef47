"""Tables as cells against the LaTeX sources of ../shared/data/pdfs/generated_with_latex.

Run: .venv/bin/python bench/table_quality.py   (writes bench/results/table_quality.md)
Gold: every ``tabular`` of template.tex; a PDF table is matched to the gold table of the same
number (LaTeX numbers tables in source order); cells are matched by folded text.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from tex_tables import cell_matches, tex_tables

from papermind.ingest import parse_file

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("PAPERMIND_SHARED_DATA") or ROOT.parent / "shared" / "data")


def main() -> int:
    folder = DATA / "pdfs" / "generated_with_latex"
    if not folder.is_dir():
        print(f"shared data not found at {folder}")
        return 1
    started, cpu = time.perf_counter(), time.process_time()
    out, matched, found_all, gold_all, exact = [], 0, 0, 0, 0
    papers = sorted(p for p in folder.iterdir() if p.is_dir())
    for paper_dir in papers:
        paper = parse_file(paper_dir / f"{paper_dir.name}.pdf")
        gold = tex_tables((paper_dir / "latex" / "template.tex").read_text())
        exact += len(paper.tables) == len(gold)
        line = []
        for k, rows in enumerate(gold, start=1):
            table = next((t for t in paper.tables if t.number == str(k)), None)
            got = [[c.text for c in row] for row in table.rows] if table else []
            m, f, g = cell_matches(got, rows)
            matched, found_all, gold_all = matched + m, found_all + f, gold_all + g
            line.append(f"T{k} {m}/{g} (found {f})")
        extra = len(paper.tables) - len(gold)
        out.append(f"  {paper_dir.name}: tables {len(paper.tables)}/{len(gold)}; " + ", ".join(line)
                   + (f"; {extra} extra" if extra > 0 else ""))
    precision, recall = matched / max(found_all, 1), matched / max(gold_all, 1)
    f1 = 2 * precision * recall / max(precision + recall, 1e-9)
    out.insert(0, f"cell F1 {f1:.3f} (precision {precision:.3f}, recall {recall:.3f}; "
                  f"{matched} matched, {found_all} found, {gold_all} gold)")
    out.insert(1, f"table count exact: {exact}/{len(papers)} papers")
    out.append(f"wall {time.perf_counter() - started:.1f} s, CPU {time.process_time() - cpu:.1f} s "
               f"(shared, loaded machine)")
    report = "\n".join(out)
    print(report)
    results = ROOT / "bench" / "results"
    results.mkdir(parents=True, exist_ok=True)
    (results / "table_quality.md").write_text(
        f"# table_quality\n\nCommand: `.venv/bin/python bench/table_quality.py`\n\n```\n{report}\n```\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
