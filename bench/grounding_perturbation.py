"""Perturbation benchmark of the quote locator on the real papers in ../shared/data/pdfs.

Genuine quotes (one line; across line, column and page breaks; hyphenated; ligatures) and
'...' omissions should be clean at the right page and first line; number / word changes,
dropped words, paraphrases and fabricated sentences should not be clean.

Run: .venv/bin/python bench/grounding_perturbation.py [--per-kind N]
(writes bench/results/grounding_perturbation.md)
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

from papermind.domain import Evidence, Paper
from papermind.errors import IngestError
from papermind.evaluation.perturb.claims import PASSING_KINDS, claim_cases
from papermind.evaluation.perturb.edits import build_cases
from papermind.evaluation.perturb.quotes import NEGATIVE_KINDS, POSITIVE_KINDS, Body, Case
from papermind.grounding import QuoteLocator, check_claim
from papermind.ingest import parse_file

ROOT = Path(__file__).resolve().parents[1]
PDFS = next((base / "shared" / "data" / "pdfs" for base in (ROOT.parent, ROOT.parents[1])
             if (base / "shared" / "data" / "pdfs").is_dir()), ROOT.parent / "shared" / "data" / "pdfs")
OUT = ROOT / "bench" / "results" / "grounding_perturbation.md"


def load_papers() -> dict[str, Paper]:
    """Every PDF that parses, once per content hash."""
    papers: dict[str, Paper] = {}
    seen: set[str] = set()
    for pdf in sorted(PDFS.rglob("*.pdf")):
        try:
            paper = parse_file(pdf)
        except IngestError:
            continue
        if paper.id not in seen and sum(len(p.lines) for p in paper.pages) >= 40:
            seen.add(paper.id)
            papers[str(pdf.relative_to(PDFS))] = paper
    return papers


Tally = dict[str, dict[str, int]]


def run(papers: dict[str, Paper], cases: list[Case]) -> tuple[Tally, list[str], float]:
    """Tallies per kind, examples of mistakes, and the locate time."""
    tally: Tally = defaultdict(lambda: defaultdict(int))
    mistakes: list[str] = []
    elapsed = 0.0
    by_paper: dict[str, list[Case]] = defaultdict(list)
    for case in cases:
        by_paper[case.paper].append(case)
    for name, group in by_paper.items():
        locator = QuoteLocator(papers[name])
        for case in group:
            t0 = time.perf_counter()
            evidence = locator.locate(case.quote)
            elapsed += time.perf_counter() - t0
            _count(tally[case.kind], case, evidence, mistakes)
    return tally, mistakes, elapsed


def _count(row: dict[str, int], case: Case, e: Evidence, mistakes: list[str]) -> None:
    at_origin = e.anchor is not None and (e.anchor.page, e.anchor.line_start) == (case.page, case.line)
    row["n"] += 1
    row["found"] += e.anchor is not None
    clean = e.found and e.support.by != "code"  # located with no non-cosmetic difference
    row["clean"] += clean
    row["at_origin"] += at_origin
    row["right"] += clean and at_origin if case.positive else not clean
    wrong = (not (clean and at_origin)) if case.positive else clean
    if wrong and len(mistakes) < 60:
        where = e.anchor.label() if e.anchor else "-"
        mistakes.append(f"- {case.kind} [{case.paper} p.{case.page} l.{case.line}] -> {e.method} "
                        f"{e.score:.2f} {where}: `{case.quote[:140]}` / paper: `{e.matched_text[:140]}`"
                        f" {e.reasons[:2]}")


def report(tally: Tally, n_papers: int, elapsed: float, command: str) -> str:
    total = sum(r["n"] for r in tally.values())
    tp = sum(tally[k]["right"] for k in POSITIVE_KINDS if k in tally)
    pos = sum(tally[k]["n"] for k in POSITIVE_KINDS if k in tally)
    fp_all = sum(tally[k]["clean"] for k in NEGATIVE_KINDS if k in tally)
    lines = [f"# Grounding perturbation benchmark\n\nCommand: `{command}`\n",
             f"{n_papers} papers, {total} quotes, locate time {elapsed:.2f} s "
             f"({total / max(elapsed, 1e-9):.0f} quotes/s)\n",
             "| class | n | clean | found | at origin (page+first line) | precision of 'clean' vs this class |",
             "|---|---|---|---|---|---|"]
    for kind in (*POSITIVE_KINDS, *NEGATIVE_KINDS):
        r = tally.get(kind)
        if not r:
            continue
        fp = r["clean"] if kind in NEGATIVE_KINDS else 0
        precision = tp / (tp + fp) if tp + fp else 1.0
        lines.append(f"| {kind} | {r['n']} | {r['clean'] / r['n']:.1%} | {r['found'] / r['n']:.1%}"
                     f" | {r['at_origin'] / r['n']:.1%} | {precision:.2%} |")
    genuine = [k for k in POSITIVE_KINDS if k.startswith("genuine") and k in tally]
    g_ok = sum(tally[k]["right"] for k in genuine)
    g_n = sum(tally[k]["n"] for k in genuine)
    lines += ["", f"Genuine quotes clean at the right page and first line: {g_ok}/{g_n} = "
              f"{g_ok / max(g_n, 1):.2%} (goal >= 99%)",
              f"Number-altered quotes accepted: {tally['number_changed']['clean']}/"
              f"{tally['number_changed']['n']} (goal <= 1%)",
              f"Fabricated accepted: {sum(tally[k]['clean'] for k in NEGATIVE_KINDS if k.startswith('fabricated'))}/"
              f"{sum(tally[k]['n'] for k in NEGATIVE_KINDS if k.startswith('fabricated'))} (goal <= 1%)",
              f"Overall 'clean': precision {tp / max(tp + fp_all, 1):.2%}, recall {tp / max(pos, 1):.2%}"
              " (positives: genuine + '...' omissions)"]
    return "\n".join(lines) + "\n"


def claims_run(papers: dict[str, Paper], bodies: list[Body], per_kind: int) -> list[str]:
    """check_claim on claims built around genuine quotes: pass / flag rate per kind."""
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    examples: list[str] = []
    for body in bodies:
        locator = QuoteLocator(papers[body.name])
        others = [b for b in bodies if b is not body]
        for case in claim_cases(body, others, random.Random(body.name), per_kind):
            reasons = check_claim(case.claim, locator.locate(case.quote), locator.paper)
            row = tally[case.kind]
            row[0] += 1
            row[1] += not reasons
            if (not reasons) != case.should_pass and len(examples) < 15:
                examples.append(f"- {case.kind}: `{case.claim[:140]}` {reasons[:2]}")
    out = ["", "## Claim checks (check_claim) on claims built around genuine quotes", "",
           "| claim kind | n | passed | expected |", "|---|---|---|---|"]
    for kind, (n, passed) in tally.items():
        expected = "pass" if kind in PASSING_KINDS else "flag"
        out.append(f"| {kind} | {n} | {passed / max(n, 1):.1%} | {expected} |")
    return [*out, "", "Misjudged examples:", "", *(examples or ["none"])]


def independent_sentences(txt: Path, limit: int = 150) -> list[str]:
    """Prose sentences of another tool's extraction (markdown) of the same PDF."""
    text = re.sub(r"```.*?```", " ", txt.read_text(encoding="utf-8"), flags=re.DOTALL)
    text = re.sub(r"[*_#`|]|\[[^\]]*\]", " ", text)
    sentences = re.split(r"(?<=[.!?])\s+", " ".join(text.split()))
    prose = [s for s in sentences if 10 <= len(s.split()) <= 40
             and sum(w.isalpha() for w in s.replace(",", "").split()) >= 0.8 * len(s.split())]
    return prose[:limit]


def independent_run() -> list[str]:
    """Sentences cut from another extractor's text (pymupdf4llm markdown), located in our parse."""
    out = ["", "## Sentences from an independent extraction", "",
           "ai_scientist_fewshot/*.txt were extracted from the same PDFs by another tool; prose "
           "sentences of 10-40 words are located in our parse (no line truth: clean share only).",
           "", "| paper | sentences | clean | found |", "|---|---|---|---|"]
    for txt in sorted((PDFS / "ai_scientist_fewshot").glob("*.txt")):
        locator = QuoteLocator(parse_file(txt.with_suffix(".pdf")))
        found = [locator.locate(s) for s in independent_sentences(txt)]
        n = len(found)
        out.append(f"| {txt.stem} | {n} | {sum(e.found and e.support.by != 'code' for e in found) / n:.1%} | "
                   f"{sum(e.anchor is not None for e in found) / n:.1%} |")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-kind", type=int, default=12, help="cases per kind per paper")
    args = parser.parse_args()
    if not PDFS.is_dir():
        print(f"shared data not found at {PDFS}")
        return 1
    started = time.perf_counter()
    papers = load_papers()
    bodies = [Body(name, p) for name, p in papers.items()]
    cases = build_cases(bodies, args.per_kind)
    tally, mistakes, elapsed = run(papers, cases)
    command = ".venv/bin/python bench/grounding_perturbation.py" + (
        f" --per-kind {args.per_kind}" if args.per_kind != 12 else "")
    text = report(tally, len(papers), elapsed, command)
    text += "\n".join(claims_run(papers, bodies, args.per_kind)) + "\n"
    text += "\n".join(independent_run()) + "\n"
    text += f"\nTotal wall time (parse + build + locate): {time.perf_counter() - started:.1f} s\n"
    text += "\n## Mistakes (first 60)\n\n" + ("\n".join(mistakes) or "none") + "\n"
    print(text)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
