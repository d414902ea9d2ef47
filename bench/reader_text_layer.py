"""The reader's text layer on the shared PDFs: how long word boxes take, how many words are
placed from their own characters (not estimated), and whether a located quote's highlight
covers exactly its words.

For each paper: ``page_words`` over all pages (wall and CPU time); the share of words whose
box comes from matched characters; the share of boxes inside their line's box (1 pt slack).
Quotes: up to 10 per paper, 8-16 words cut from paragraphs that span several lines; each is
located (``GroundingEngine.ground``) and its highlight (``quote_words``) must spell the
located text exactly (same token keys, same count).

Command: ``.venv/bin/python bench/reader_text_layer.py [--out bench/results/reader_text_layer.md]``
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.shared_papers import parsed_pdfs, pdfs_dir

from papermind.domain import Paper
from papermind.grounding import GroundingEngine
from papermind.grounding.quote_words import quote_words
from papermind.grounding.text import norm_token
from papermind.ingest.page_words import page_words

FOLDERS = ("ai_scientist_fewshot", "s2orc_doc2json", "docling")
NESTED = "generated_with_latex"  # one folder per paper
QUOTES_PER_PAPER = 10


def _quotes(paper: Paper, rng: random.Random) -> list[str]:
    long = [p for p in paper.paragraphs if len(p.segments) >= 3 and len(p.text.split()) >= 24]
    out = []
    for para in rng.sample(long, min(QUOTES_PER_PAPER, len(long))):
        words = para.text.split()
        size = rng.randint(8, 16)
        start = rng.randint(0, len(words) - size)
        out.append(" ".join(words[start:start + size]))
    return out


def _exact(paper: Paper, engine: GroundingEngine, quote: str) -> bool | None:
    """True when the highlight spells the located text; None when the quote is not found."""
    evidence = engine.ground(paper, quote)
    if evidence.anchor is None:
        return None
    lines = {(ln.page, ln.n): ln.text.split() for ln in paper.lines()}
    words = [lines[(w.page, w.line)][w.index] for w in
             quote_words(paper, evidence.anchor, evidence.matched_text)]
    want = [k for k in map(norm_token, evidence.matched_text.split()) if k]
    got = [k for k in map(norm_token, " ".join(words).replace("-\n", "").split()) if k]
    return got == want or "".join(got) == "".join(want)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    root = pdfs_dir()
    if root is None:
        raise SystemExit("shared data not found (set PAPERMIND_SHARED_DATA)")
    rng, engine = random.Random(16), GroundingEngine()
    rows, totals = [], {"pages": 0, "words": 0, "measured": 0, "inside": 0, "wall": 0.0,
                        "cpu": 0.0, "quotes": 0, "found": 0, "exact": 0}
    nested = sorted(f"{NESTED}/{d.name}" for d in (root / NESTED).iterdir() if d.is_dir()) \
        if (root / NESTED).is_dir() else []
    for pdf, paper in parsed_pdfs(root, [*FOLDERS, *nested]):
        wall, cpu = time.perf_counter(), time.process_time()
        pages = page_words(pdf, paper.pages)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        boxes = {(ln.page, ln.n): ln.box for ln in paper.lines()}
        words = [w for p in pages for w in p.words]
        inside = sum(_inside(w.box, boxes[(w.box.page, w.line)]) for w in words)
        checks = [_exact(paper, engine, q) for q in _quotes(paper, rng)]
        row = {"pages": len(pages), "words": len(words),
               "measured": sum(w.measured for w in words), "inside": inside, "wall": wall,
               "cpu": cpu, "quotes": len(checks), "found": sum(c is not None for c in checks),
               "exact": sum(c is True for c in checks)}
        rows.append((pdf.name, row))
        for key, value in row.items():
            totals[key] += value
    text = _table(rows, totals)
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")


def _inside(box: object, line: object) -> bool:
    return line is not None and all(  # type: ignore[attr-defined]
        [box.x0 >= line.x0 - 1, box.x1 <= line.x1 + 1,  # type: ignore[attr-defined]
         box.y0 >= line.y0 - 1, box.y1 <= line.y1 + 1])  # type: ignore[attr-defined]


def _table(rows: list[tuple[str, dict[str, float]]], t: dict[str, float]) -> str:
    load = os.getloadavg()[0]
    out = ["# Reader text layer: word boxes and word-exact highlights on the shared PDFs", "",
           "Command: `.venv/bin/python bench/reader_text_layer.py --out "
           "bench/results/reader_text_layer.md`", "",
           f"Load average at the end: {load:.1f} (a shared 2-core machine).", "",
           "| paper | pages | words | from characters | inside line box | wall s | CPU s | "
           "quotes found | highlight exact |", "|---|---|---|---|---|---|---|---|---|"]
    for name, r in [*rows, ("**all**", t)]:
        out.append(f"| {name} | {r['pages']} | {r['words']} | "
                   f"{r['measured'] / max(r['words'], 1):.2%} | "
                   f"{r['inside'] / max(r['words'], 1):.2%} | {r['wall']:.2f} | {r['cpu']:.2f} | "
                   f"{r['found']}/{r['quotes']} | {r['exact']}/{r['found']} |")
    out += ["", f"CPU per page: {t['cpu'] / max(t['pages'], 1) * 1000:.0f} ms."]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    main()
