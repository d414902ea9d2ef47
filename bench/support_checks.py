"""Code support checks on perturbed claims citing real lines, through the `verify` use case.

    PYTHONPATH=src .venv/bin/python bench/support_checks.py   (writes bench/results/support_checks.md)

Every PDF of ../shared/data/pdfs/{science_parse,ai_scientist_fewshot,generated_with_latex} is
parsed; ``evaluation.perturb.support`` builds claims from prose lines of its body, each citing
its own line: the line unchanged, one number changed, a foreign dataset name in place of a
name or added, the negation flipped, a comparison word swapped for its opposite. Each claim
goes through ``services.verification.verify`` (code checks only, no model). Targets (issue 12):
>= 99% not ``supported`` for numbers and names, >= 90% for negation and direction, and the
unchanged line >= 99% not ``contradicted``. Code alone never says ``supported``, so "not
supported" holds by construction; the column that measures the checks is "lowered by code"
(contradicted or not_enough), which a later checker verdict can no longer raise.
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from shared_papers import parsed_pdfs, pdfs_dir  # noqa: E402

from papermind.evaluation.perturb.support import KINDS, SupportCase, support_cases  # noqa: E402
from papermind.grounding import GroundingEngine  # noqa: E402
from papermind.services.verification import verify  # noqa: E402

FOLDERS = ("science_parse", "ai_scientist_fewshot", "generated_with_latex")
OUT = ROOT / "bench" / "results" / "support_checks.md"
PER_KIND = 25
TARGETS = {"unchanged": "not contradicted >= 99%", "excerpt": "(not lowered: false alarms)", "number": "lowered >= 99%",
           "name_replaced": "lowered >= 99%", "name_added": "lowered >= 99%",
           "negation": "lowered >= 90%", "direction": "lowered >= 90%"}



def main() -> int:
    pdfs = pdfs_dir()
    if pdfs is None:
        print("shared data not found; nothing measured")
        return 0
    engine = GroundingEngine()
    verdicts: dict[str, Counter[str]] = defaultdict(Counter)
    misses: dict[str, list[SupportCase]] = defaultdict(list)
    papers, checked, check_cpu = 0, 0, 0.0
    start, cpu = time.perf_counter(), time.process_time()
    for pdf, paper in parsed_pdfs(pdfs, FOLDERS):
        papers += 1
        t = time.process_time()
        for case in support_cases(pdf.name, paper, random.Random(pdf.name), PER_KIND):
            e = verify(paper, case.claim, lines=case.cited, grounder=engine).evidence
            verdicts[case.kind][e.support.verdict] += 1
            checked += 1
            bad = (e.support.verdict == "contradicted" if case.kind == "unchanged"
                   else e.support.by == "code" if case.kind == "excerpt"
                   else e.support.by != "code")
            if bad:
                misses[case.kind].append(case)
        check_cpu += time.process_time() - t
    wall, cpu_s = time.perf_counter() - start, time.process_time() - cpu
    report = render(verdicts, misses, papers, checked, wall, cpu_s, check_cpu)
    OUT.write_text(report, encoding="utf-8")
    print(report)
    return 0


def render(verdicts: dict[str, Counter[str]], misses: dict[str, list[SupportCase]], papers: int,
           checked: int, wall: float, cpu: float, check_cpu: float) -> str:
    out = ["# Code support checks on perturbed claims citing real lines", "",
           f"`PYTHONPATH=src python bench/support_checks.py` — {papers} real PDFs, {checked} "
           f"claims; {wall:.0f} s wall / {cpu:.0f} s CPU in all (parsing included), "
           f"{1000 * check_cpu / max(checked, 1):.1f} ms CPU per verify (shared, loaded 2-core "
           "machine).", "",
           "| kind | n | supported | contradicted | not_enough | unchecked | not supported | "
           "lowered by code | not contradicted | target |", "|---|---|---|---|---|---|---|---|---|---|"]
    for kind in KINDS:
        c = verdicts[kind]
        n = sum(c.values()) or 1
        lowered = c["contradicted"] + c["not_enough"]
        out.append(f"| {kind} | {sum(c.values())} | {c['supported']} | {c['contradicted']} | "
                   f"{c['not_enough']} | {c['unchecked']} | {100 * (n - c['supported']) / n:.1f}% | "
                   f"{100 * lowered / n:.1f}% | {100 * (n - c['contradicted']) / n:.1f}% | "
                   f"{TARGETS[kind]} |")
    out += ["", "Misses (up to 5 per kind: unchanged lines lowered to contradicted, excerpts "
            "lowered at all, perturbed claims the code did not lower):", ""]
    for kind in KINDS:
        for case in misses[kind][:5]:
            out.append(f"- {kind} {case.paper[:20]} {case.cited}: claim `{case.claim}` / "
                       f"line `{case.line}`")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
