"""Chinese born-digital PDFs (../shared/data/pdfs/zh) against their LaTeX gold: titles exact,
sections found at the right level, reference counts, crashes.

Run: PYTHONPATH=src .venv/bin/python bench/zh_ingest.py   (writes bench/results/zh_ingest.md)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.shared_papers import pdfs_dir  # noqa: E402
from tests.support import zh_gold  # noqa: E402

from papermind.ingest import parse_file  # noqa: E402


def score(pdf: Path) -> tuple[str, int, int, int, int, int]:
    """(row, gold sections, right level, found at any level, gold refs, parsed refs)."""
    paper = parse_file(pdf)
    tex = pdf.with_suffix(".tex")
    gold = zh_gold.sections(tex)
    parsed: dict[str, set[int]] = {}
    for section in paper.sections:
        parsed.setdefault(zh_gold.fold(section.title), set()).add(section.level)
    right = sum(g.level in parsed.get(zh_gold.fold(g.title), set()) for g in gold)
    anywhere = sum(zh_gold.fold(g.title) in parsed for g in gold)
    title_ok = zh_gold.fold(paper.title or "") == zh_gold.fold(zh_gold.TITLES[pdf.stem])
    refs = zh_gold.reference_count(tex)
    missing = [f"{g.title}@{g.level}" for g in gold
               if g.level not in parsed.get(zh_gold.fold(g.title), set())]
    row = (f"| {pdf.stem} | {'yes' if title_ok else 'NO: ' + repr(paper.title)} | "
           f"{right}/{len(gold)} | {len(paper.sections)} | {len(paper.references)}/{refs} | "
           f"{', '.join(missing[:6]) or '-'} |")
    return row, len(gold), right, anywhere, refs, len(paper.references)


def main() -> int:
    root = pdfs_dir()
    if root is None or not (root / "zh").is_dir():
        print("shared data (pdfs/zh) not found")
        return 1
    rows = ["| paper | title exact | sections at right level | parsed sections | refs parsed/gold "
            "| missed (first 6) |", "|---|---|---|---|---|---|"]
    totals = [0, 0, 0]
    titles = crashes = refs_exact = 0
    started, cpu = time.perf_counter(), time.process_time()
    pdfs = sorted((root / "zh").glob("*.pdf"))
    for pdf in pdfs:
        try:
            row, gold, right, anywhere, refs, got = score(pdf)
        except Exception as err:  # a crash is a result here
            crashes += 1
            rows.append(f"| {pdf.stem} | CRASH {err!r} | | | | |")
            continue
        rows.append(row)
        totals = [totals[0] + gold, totals[1] + right, totals[2] + anywhere]
        titles += "| yes |" in row
        refs_exact += refs == got
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    summary = [f"titles exact {titles}/{len(pdfs)}; sections at the right level "
               f"{totals[1]}/{totals[0]} = {totals[1] / max(totals[0], 1):.3f} (found at any level "
               f"{totals[2] / max(totals[0], 1):.3f}); reference counts exact {refs_exact}/"
               f"{len(pdfs)}; crashes {crashes}; {wall:.1f} s wall, {cpu:.1f} s CPU"]
    text = "\n".join(["# Chinese PDFs against their LaTeX gold", "",
                      "`PYTHONPATH=src .venv/bin/python bench/zh_ingest.py`", "", *summary, "",
                      *rows, ""])
    (ROOT / "bench" / "results" / "zh_ingest.md").write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
