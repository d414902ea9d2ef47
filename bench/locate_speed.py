"""Quotes located per second on a 30-page paper (index built once).

The paper: the 28 pages of the longest PDF in ../shared/data/pdfs/science_parse plus the first
2 pages of another, renumbered into one 30-page paper. Quotes come from the perturbation
generator (genuine, edited, paraphrased, fabricated), timed per class and as a whole.

Run: .venv/bin/python bench/locate_speed.py   (writes bench/results/grounding_locate_speed.md)
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from pathlib import Path

from papermind.domain import Paper
from papermind.evaluation.perturb.edits import build_cases
from papermind.evaluation.perturb.quotes import Body
from papermind.grounding import GroundingEngine, QuoteLocator
from papermind.ingest import parse_file

ROOT = Path(__file__).resolve().parents[1]
SP = ROOT.parent / "shared" / "data" / "pdfs" / "science_parse"
OUT = ROOT / "bench" / "results" / "grounding_locate_speed.md"
MAIN, EXTRA = "c0690a1d74ab781bd54f9fa7e67267cce656.pdf", "e4faf2c1d76b9bf8f8b4524dfb8c5c6b93be5f35.pdf"


def thirty_pages() -> Paper:
    main, extra = parse_file(SP / MAIN), parse_file(SP / EXTRA)
    pages = list(main.pages) + list(extra.pages[:30 - len(main.pages)])
    renumbered = []
    for number, page in enumerate(pages, 1):
        lines = [ln.model_copy(update={"page": number, "box": ln.box and ln.box.model_copy(
            update={"page": number})}) for ln in page.lines]
        renumbered.append(page.model_copy(update={"number": number, "lines": lines}))
    return main.model_copy(update={"pages": renumbered, "sections": [], "references": []})


def main() -> int:
    if not SP.is_dir():
        print(f"shared data not found at {SP}")
        return 1
    paper = thirty_pages()
    other = parse_file(SP / "P14-1059.pdf")
    cases = [c for c in build_cases([Body("main", paper), Body("other", other)], per_kind=40)
             if c.paper == "main"]
    t0 = time.perf_counter()
    locator = QuoteLocator(paper)
    build = time.perf_counter() - t0
    for case in cases[:20]:  # warm-up: compiled patterns, caches
        locator.locate(case.quote)
    per_class: dict[str, list[float]] = defaultdict(list)
    for case in cases:
        t = time.perf_counter()
        locator.locate(case.quote)
        per_class[case.kind].append(time.perf_counter() - t)
    engine = GroundingEngine()
    engine.ground(paper, cases[0].quote, claim=cases[0].quote)  # its locator for this paper
    t = time.perf_counter()
    for case in cases:
        engine.ground(paper, case.quote, claim=case.quote)
    with_claims = time.perf_counter() - t
    all_times = [x for xs in per_class.values() for x in xs]
    words = sum(len(ln.text.split()) for ln in paper.lines())
    lines = ["# Quote locating speed on a 30-page paper\n",
             "Command: `.venv/bin/python bench/locate_speed.py`\n",
             f"Paper: {len(paper.pages)} pages, {sum(len(p.lines) for p in paper.pages)} lines, "
             f"{words} words. Index built once in {build * 1000:.0f} ms.\n",
             "| quote class | n | quotes/s | mean ms |", "|---|---|---|---|"]
    for kind, xs in per_class.items():
        lines.append(f"| {kind} | {len(xs)} | {len(xs) / sum(xs):.0f} | {1000 * sum(xs) / len(xs):.2f} |")
    lines += ["", f"All {len(all_times)} quotes (mixed classes): {len(all_times) / sum(all_times):.0f} "
              f"quotes/s ({1000 * sum(all_times) / len(all_times):.2f} ms mean)",
              f"With code support checks (GroundingEngine.ground, claim = quote): "
              f"{len(cases) / with_claims:.0f} quotes/s"]
    text = "\n".join(lines) + "\n"
    print(text)
    OUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
