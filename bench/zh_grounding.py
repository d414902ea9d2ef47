"""Quote locator and claim checks on the Chinese papers (../shared/data/pdfs/zh).

Genuine quotes: 10-40 characters ending on one body line and starting on the line before
(a cross-line quote cut next to Han characters, as a reader copies it: no space at the break, ',' ':' '(' ')' ';'
written full-width again). Negatives: the same quotes with one character changed: a digit
of a number (quotes holding a number), or one Han character of a name or term (another
character of the paper's text). "Clean" = found with no non-cosmetic difference (the
locator's own policy); the goals are genuine >= 99% clean at the right first line, changed
<= 1% clean. Claim checks: check_claim on the genuine quote restated with a changed number.

Run: PYTHONPATH=src .venv/bin/python bench/zh_grounding.py   (writes bench/results/zh_grounding.md)
"""

from __future__ import annotations

import random
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.shared_papers import parsed_pdfs, pdfs_dir  # noqa: E402

from papermind.domain import Evidence, Line, Paper  # noqa: E402
from papermind.grounding import QuoteLocator, check_claim  # noqa: E402
from papermind.grounding.text import compact  # noqa: E402
from papermind.i18n.scripts import CJK_CHAR  # noqa: E402

FULL_WIDTH = str.maketrans({",": "，", ":": "：", "(": "（", ")": "）", ";": "；"})
PER_PAPER = 60


def body_pairs(paper: Paper) -> list[tuple[Line, Line]]:
    """Consecutive flow lines of Chinese prose (both >= 12 Han characters, references left out)."""
    refs = {(r.page, r.line) for r in paper.references}
    lines = [ln for ln in paper.lines() if len(CJK_CHAR.findall(ln.text)) >= 12]
    start = min((i for i, ln in enumerate(lines) if (ln.page, ln.n) in refs), default=len(lines))
    return [(a, b) for a, b in zip(lines[:start], lines[1:start], strict=False)
            if b.page == a.page and b.n == a.n + 1]


def _cuts(text: str) -> list[int]:
    """Offsets where a reader may start or end a quote: next to a Han character (never inside
    a Latin word, number or command)."""
    return [i for i in range(1, len(text)) if CJK_CHAR.match(text[i - 1]) or CJK_CHAR.match(text[i])]


def genuine(a: Line, b: Line, rng: random.Random) -> str:
    starts = [i for i in _cuts(a.text) if 5 <= len(a.text) - i <= 20]
    ends = [i for i in _cuts(b.text) if 5 <= i <= 20]
    head = a.text[rng.choice(starts):] if starts else a.text
    tail = b.text[:rng.choice(ends)] if ends else b.text
    return (head.lstrip() + tail.rstrip()).translate(FULL_WIDTH)


def occurrences(locator: QuoteLocator, quote: str) -> int:
    return locator.index.compact.count(compact(quote))


def changed(quote: str, rng: random.Random, pool: str) -> tuple[str, str] | None:
    """(kind, quote) with one digit or one Han character changed, or None."""
    digits = [i for i, c in enumerate(quote) if c in "0123456789"]
    if digits:
        i = rng.choice(digits)
        return "digit", quote[:i] + str((int(quote[i]) + rng.randint(1, 9)) % 10) + quote[i + 1:]
    hans = [i for i, c in enumerate(quote) if CJK_CHAR.match(c)]
    i = rng.choice(hans)
    other = rng.choice([c for c in pool if c != quote[i]])
    return "character", quote[:i] + other + quote[i + 1:]


def clean(evidence: Evidence) -> bool:
    return evidence.found and evidence.support.by != "code"


def main() -> int:
    root = pdfs_dir()
    if root is None or not (root / "zh").is_dir():
        print("shared data (pdfs/zh) not found")
        return 1
    rng = random.Random(20)
    tally = {k: [0, 0] for k in ("genuine", "digit", "character", "claim_number", "claim_same")}
    misses: list[str] = []
    started, cpu = time.perf_counter(), time.process_time()
    for pdf, paper in parsed_pdfs(root, ["zh"]):
        locator = QuoteLocator(paper)
        pool = "".join(CJK_CHAR.findall("".join(ln.text for ln in paper.lines())))
        pairs = body_pairs(paper)
        for a, b in rng.sample(pairs, min(PER_PAPER, len(pairs))):
            quote = genuine(a, b, rng)
            if occurrences(locator, quote) != 1 or "…" in quote or "..." in quote:
                continue  # repeated text: any occurrence is right
            evidence = locator.locate(quote)
            ok = clean(evidence) and evidence.anchor is not None and \
                (evidence.anchor.page, evidence.anchor.line_start) == (a.page, a.n)
            tally["genuine"][0] += 1
            tally["genuine"][1] += ok
            if not ok and len(misses) < 20:
                misses.append(f"- genuine {pdf.stem} p.{a.page} l.{a.n}: `{quote}` -> "
                              f"{evidence.anchor.label() if evidence.anchor else '-'} {evidence.reasons[:1]}")
            kind, bad = changed(quote, rng, pool) or ("", "")
            if occurrences(locator, bad):
                continue  # the changed text is in the paper too
            evidence_bad = locator.locate(bad)
            tally[kind][0] += 1
            tally[kind][1] += clean(evidence_bad)
            if clean(evidence_bad) and len(misses) < 40:
                misses.append(f"- {kind} accepted {pdf.stem}: `{bad}` vs `{quote}`")
            tally["claim_same"][0] += 1
            tally["claim_same"][1] += not check_claim(f"论文指出{quote}", evidence, paper)
            if re.search(r"[0-9]", quote):
                claim = f"论文指出{changed(quote, rng, pool)[1]}"  # type: ignore[index]
                tally["claim_number"][0] += 1
                tally["claim_number"][1] += not check_claim(claim, evidence, paper)
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    g, d, c, n, same = (tally[k] for k in ("genuine", "digit", "character", "claim_number",
                                            "claim_same"))
    lines = ["# Grounding on the Chinese papers", "",
             "`PYTHONPATH=src .venv/bin/python bench/zh_grounding.py` (seed 20, up to "
             f"{PER_PAPER} quotes per paper; {wall:.1f} s wall, {cpu:.1f} s CPU incl. parsing)", "",
             "| class | n | clean (found, no difference) | goal |", "|---|---|---|---|",
             f"| genuine cross-line quotes, at the right page and first line | {g[0]} | "
             f"{g[1] / max(g[0], 1):.2%} | >= 99% |",
             f"| one digit of a number changed | {d[0]} | {d[1] / max(d[0], 1):.2%} | <= 1% |",
             f"| one Han character (name or term) changed | {c[0]} | {c[1] / max(c[0], 1):.2%} "
             "| <= 1% |",
             f"| check_claim passes a claim restating a genuine quote with one digit changed | "
             f"{n[0]} | {n[1] / max(n[0], 1):.2%} | <= 1% |",
             f"| check_claim passes the same claim with the quote unchanged | {same[0]} | "
             f"{same[1] / max(same[0], 1):.2%} | high |", "",
             "Mistakes (first 40):", "", *(misses or ["none"]), ""]
    text = "\n".join(lines)
    (ROOT / "bench" / "results" / "zh_grounding.md").write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
