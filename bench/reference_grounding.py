"""Reference grounding on the LaTeX-backed papers (../shared/data/pdfs/generated_with_latex).

Every \\cite key is printed the way natbib prints it ('Ho et al., 2020' / 'Ho et al. (2020)')
and resolved against the parsed PDF's own bibliography; right when it lands on the entry
whose title matches the .bbl entry of that key. Titles are resolved the same way, and
invented citations (real author + wrong year, unknown authors, altered or unknown titles,
invented full references) must resolve to nothing.

Run: .venv/bin/python bench/reference_grounding.py   (writes bench/results/grounding_references.md)
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

from latex_truth import BibItem, bib_items, cite_keys, invented_citations
from rapidfuzz import fuzz

from papermind.domain import Paper, Reference
from papermind.grounding import ReferenceResolver
from papermind.grounding.bibliography import plain
from papermind.ingest import parse_file

ROOT = Path(__file__).resolve().parents[1]
LATEX = ROOT.parent / "shared" / "data" / "pdfs" / "generated_with_latex"
OUT = ROOT / "bench" / "results" / "grounding_references.md"


def truth(paper: Paper, items: list[BibItem]) -> dict[str, Reference | None]:
    """.bbl key -> the parsed entry holding that title (None when the parser lost it).

    Both lists are in bibliography order, so equal titles (an arXiv and a conference
    version) are told apart by position."""
    out: dict[str, Reference | None] = {}
    refs = paper.references
    for i, item in enumerate(items):
        scored = [(fuzz.partial_ratio(plain(item.title), plain(r.raw)), -abs(j - i), r)
                  for j, r in enumerate(refs)]
        best = max(scored, key=lambda x: (x[0], x[1]), default=None)
        out[item.key] = best[2] if best is not None and best[0] >= 90 else None
    return out


def score_paper(folder: Path) -> dict[str, int]:
    paper = parse_file(next(folder.glob("*.pdf")))
    items = bib_items((folder / "latex" / "template.bbl").read_text(encoding="utf-8"))
    cites = cite_keys((folder / "latex" / "template.tex").read_text(encoding="utf-8"))
    gold = truth(paper, items)
    by_key = {i.key: i for i in items}
    resolver = ReferenceResolver(paper)
    row = {"cites": 0, "cites_right": 0, "no_entry": 0, "titles": 0, "titles_right": 0,
           "invented": 0, "invented_rejected": 0}
    for key, narrative in cites:
        if key not in by_key:
            continue
        row["cites"] += 1
        row["no_entry"] += gold[key] is None
        got = resolver.resolve(by_key[key].cited(narrative))
        row["cites_right"] += got is not None and got == gold[key]
    for item in items:
        row["titles"] += 1
        got = resolver.resolve(item.title)
        row["titles_right"] += got is not None and got == gold[item.key]
    for fake in invented_citations(items, random.Random(folder.name)):
        row["invented"] += 1
        row["invented_rejected"] += resolver.resolve(fake) is None
    return row


def main() -> int:
    if not LATEX.is_dir():
        print(f"shared data not found at {LATEX}")
        return 1
    started = time.perf_counter()
    lines = ["# Reference grounding on generated_with_latex\n",
             "Command: `.venv/bin/python bench/reference_grounding.py`\n",
             "| paper | \\cite keys resolved right | entry missing from the parse | titles resolved right"
             " | invented rejected |", "|---|---|---|---|---|"]
    total: dict[str, int] = {}
    for folder in sorted(p for p in LATEX.iterdir() if (p / "latex" / "template.bbl").exists()):
        row = score_paper(folder)
        total = {k: total.get(k, 0) + v for k, v in row.items()}
        lines.append(f"| {folder.name} | {row['cites_right']}/{row['cites']} | {row['no_entry']} | "
                     f"{row['titles_right']}/{row['titles']} | "
                     f"{row['invented_rejected']}/{row['invented']} |")
    t = total
    lines += ["", f"\\cite keys resolved to the right entry: {t['cites_right']}/{t['cites']} = "
              f"{t['cites_right'] / max(t['cites'], 1):.1%} (goal >= 95%)",
              f"Titles resolved to the right entry: {t['titles_right']}/{t['titles']} = "
              f"{t['titles_right'] / max(t['titles'], 1):.1%}",
              f"Invented citations rejected: {t['invented_rejected']}/{t['invented']} = "
              f"{t['invented_rejected'] / max(t['invented'], 1):.1%}",
              f"Wall time (parse + resolve): {time.perf_counter() - started:.1f} s"]
    text = "\n".join(lines) + "\n"
    print(text)
    OUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
