"""False alarms of the code support checks on honest claims (real data, no model).

    PYTHONPATH=src .venv/bin/python bench/support_false_alarms.py
    (writes bench/results/support_false_alarms.md; PAPERMIND_SHARED_DATA=DIR points at the
    shared data when it is not ../shared/data from the repository)

Each honest claim cites the text it came from, through the same path as `verify --lines`
(``GroundingEngine.cite`` on a paper built from the text, one line per wrapped chunk):

- PubMedQA (pqal_dev.json): each item's conclusion (long answer) against its contexts;
- QASPER (qasper_subset): free-form answers (>= 5 words) against the paragraph of the paper
  that shares most of their content words (the subset has no gold evidence paragraphs, so the
  paragraph is picked by overlap; answers sharing < 50% of their content words are skipped);
- SciTab (sci_tab_dev.json): claims (the set's '[CONTINUE]' joining marks dropped) against
  the table (caption, header, rows; the paper's title is the only other text: words from
  the paper's prose are "not in the paper" here); 'supports' claims are honest, 'refutes'
  claims are reported as lowered (not a target).

Code can only lower support, and a lowered verdict can never be raised by the checker, so a
code verdict on an honest claim is a false alarm. Target: contradicted <= 2%, not_enough
as low as possible.

The relatedness floor (issue 33): a judge's 'supported' counts only when the claim's content
words and numbers mostly occur in the cited text. Its false alarms are the honest claims
below the floor (reported for several candidate floors; before the floor there were none by
construction). 'code supports' is the share the offline code-only judge calls supported
(every check passed and >= CLOSE of the claim in the text): on refuted claims that is a
wrong 'supported'.
"""

from __future__ import annotations

import json
import os
import re
import sys
import textwrap
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from papermind.domain import Line, Page, Paper  # noqa: E402
from papermind.grounding import GroundingEngine  # noqa: E402
from papermind.grounding.relatedness import CLOSE, FLOOR, relatedness  # noqa: E402

FLOORS = (0.3, 0.4, 0.5, 0.6)
"""Candidate relatedness floors reported (the one in force: grounding.relatedness.FLOOR)."""

OUT = ROOT / "bench" / "results" / "support_false_alarms.md"
VERDICTS = ("supported", "contradicted", "not_enough", "unchecked")
Case = tuple[str, list[str], int, int, str]  # claim, paragraphs, cited first/last, label
_WORD = re.compile(r"[a-z][a-z\-]{3,}")


def data_dir() -> Path | None:
    env = os.environ.get("PAPERMIND_SHARED_DATA")
    bases = [Path(env)] if env else []
    bases += [b / "shared" / "data" for b in list(ROOT.parents)[:3]]
    return next((b for b in bases if (b / "pubmedqa").is_dir()), None)


def text_paper(name: str, paragraphs: list[str]) -> tuple[Paper, list[tuple[int, int]]]:
    """One page, one line per ~90-character chunk; the (first, last) line of each paragraph."""
    lines: list[Line] = []
    spans = []
    for paragraph in paragraphs:
        first = len(lines) + 1
        for chunk in textwrap.wrap(paragraph, 90) or [""]:
            lines.append(Line(page=1, n=len(lines) + 1, text=chunk))
        spans.append((first, len(lines)))
    page = Page(number=1, lines=lines)
    return Paper(id=name, source_type="txt", pages=[page]), spans


def pubmedqa(base: Path) -> Iterator[tuple[str, Case]]:
    """Each conclusion against its own abstract (honest) and against the next item's abstract
    (unrelated: what the relatedness floor must catch)."""
    items = list(json.loads((base / "pubmedqa" / "pqal_dev.json").read_text(
        encoding="utf-8")).items())
    for n, (key, item) in enumerate(items):
        yield f"pmq{key}", (item["LONG_ANSWER"], item["CONTEXTS"], 0, len(item["CONTEXTS"]) - 1,
                            "honest")
        other = items[(n + 1) % len(items)][1]["CONTEXTS"]
        yield f"pmq{key}x", (item["LONG_ANSWER"], other, 0, len(other) - 1, "unrelated")


def qasper(base: Path) -> Iterator[tuple[str, Case]]:
    path = base / "qasper_subset" / "scientific_qa_dev.jsonl"
    for i, row in enumerate(map(json.loads, path.read_text(encoding="utf-8").splitlines())):
        paragraphs = [p.strip() for p in row["input"].split("\n") if p.strip()]
        for j, answer in enumerate(row["outputs"]):
            words = set(_WORD.findall(answer.lower()))
            if len(answer.split()) < 5 or not words:
                continue
            share, at = max((len(words & set(_WORD.findall(p.lower()))) / len(words), k)
                            for k, p in enumerate(paragraphs))
            if share >= 0.5:
                yield f"qasper{i}-{j}", (answer.strip(), paragraphs, at, at, "honest")


def scitab(base: Path) -> Iterator[tuple[str, Case]]:
    for item in json.loads((base / "scitab" / "sci_tab_dev.json").read_text(encoding="utf-8")):
        if item["label"] not in {"supports", "refutes"}:
            continue
        rows = [" | ".join(item["table_column_names"])]
        rows += [" | ".join(r) for r in item["table_content_values"]]
        paragraphs = [item["paper"], item["table_caption"], *rows]
        label = "honest" if item["label"] == "supports" else "refutes"
        claim = " ".join(item["claim"].replace("[CONTINUE]", " ").split())
        yield f"scitab{item['id']}", (claim, paragraphs, 1, len(paragraphs) - 1, label)


def run(source: Iterator[tuple[str, Case]], engine: GroundingEngine
        ) -> tuple[dict[str, Counter[str]], dict[str, list[str]]]:
    verdicts: dict[str, Counter[str]] = {}
    examples: dict[str, list[str]] = {}
    for name, (claim, paragraphs, first, last, label) in source:
        paper, spans = text_paper(name, paragraphs)
        cited = f"1:{spans[first][0]}-{spans[last][1]}"
        evidence = engine.cite(paper, cited, claim=claim)
        verdict = evidence.support.verdict
        verdicts.setdefault(label, Counter())[verdict] += 1
        share = relatedness(claim, evidence.matched_text).share
        for floor in FLOORS:
            verdicts[label][f"below {floor}"] += share < floor
        verdicts[label]["code supports"] += verdict == "unchecked" and share >= CLOSE
        if label == "honest" and verdict != "unchecked":
            examples.setdefault(verdict, []).append(
                f"`{claim[:160]}` -> {evidence.support.reason[:240]}")
    return verdicts, examples


def main() -> int:
    base = data_dir()
    if base is None:
        print("shared data not found (set PAPERMIND_SHARED_DATA); nothing measured")
        return 0
    engine = GroundingEngine(max_papers=2)
    out = ["# Code support checks: false alarms on honest claims", "",
           "`PYTHONPATH=src python bench/support_false_alarms.py` (shared, loaded 2-core machine)",
           "", "| set | claims | n | contradicted | not_enough | lowered | CPU ms/claim | "
           + " | ".join(f"below floor {f}" for f in FLOORS) + " | code supports |",
           "|---|---|---|---|---|---|---|" + "---|" * (len(FLOORS) + 1)]
    notes: list[str] = []
    for set_name, source in (("PubMedQA", pubmedqa), ("QASPER", qasper), ("SciTab", scitab)):
        cpu = time.process_time()
        verdicts, examples = run(source(base), engine)
        cpu = time.process_time() - cpu
        total = sum(sum(v for k, v in c.items() if k in VERDICTS)
                    for c in verdicts.values()) or 1
        for label, c in verdicts.items():
            n = sum(v for k, v in c.items() if k in VERDICTS) or 1
            extra = " | ".join(f"{100 * c[f'below {f}'] / n:.1f}%" for f in FLOORS)
            extra += f" | {100 * c['code supports'] / n:.1f}%"
            out.append(f"| {set_name} | {label} | {n} | "
                       f"{100 * c['contradicted'] / n:.1f}% | {100 * c['not_enough'] / n:.1f}% | "
                       f"{100 * (c['contradicted'] + c['not_enough']) / n:.1f}% | "
                       f"{1000 * cpu / total:.1f} | {extra} |")
        for verdict, lines in examples.items():
            notes += [f"- {set_name} {verdict}: {line}" for line in lines[:6]]
    out += ["", f"Relatedness floor in force: {FLOOR} (grounding/relatedness.py). Before it, "
            "no judge 'supported' was lowered for relatedness (0 false alarms, 0 unrelated "
            "claims caught); after it, the 'below floor' column of that value.", "",
            "False alarms on honest claims (up to 6 per set and verdict):", "", *notes]
    report = "\n".join(out) + "\n"
    OUT.write_text(report, encoding="utf-8")
    print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
