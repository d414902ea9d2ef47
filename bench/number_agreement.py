"""Numbers that agree: stated numbers vs table cells, on the LaTeX-backed papers and SciTab.

Run: .venv/bin/python bench/number_agreement.py   (writes bench/results/number_agreement.md)

Test set, built from ../shared/data/pdfs/generated_with_latex: every sentence (outside the
tables) with a number printed exactly as in a table cell of the same paper restates that
cell; changing one of that number's last two significant digits must be flagged
('disagrees'), and the unchanged sentences with numbers must not be (false alarms).
SciTab dev: a claim is decided from numbers alone when the check flags a number (refutes)
or finds every cell-like number in the table (supports); accuracy on those decided.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from pathlib import Path

from papermind.grounding.paper_numbers import sentence_contexts, sentences
from papermind.grounding.table_numbers import (
    CellView,
    TableView,
    cell_values,
    check_sentence,
    stated_numbers,
)
from papermind.ingest import parse_file

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("PAPERMIND_SHARED_DATA") or ROOT.parent / "shared" / "data")


def perturb(text: str, rng: random.Random) -> str:
    """One of the number's last two significant digits changed to another digit."""
    positions = [i for i, ch in enumerate(text) if ch.isdigit()]
    significant = [i for i in positions if text[i] != "0" or any(text[j] != "0" for j in positions if j < i)]
    at = rng.choice(significant[-2:])
    digit = rng.choice([d for d in "0123456789" if d != text[at] and not (at == positions[0] and d == "0")])
    return text[:at] + digit + text[at + 1:]


def latex_set(rng: random.Random) -> tuple[int, int, int, int]:
    flagged = positives = alarms = unchanged = 0
    for folder in sorted(p for p in (DATA / "pdfs" / "generated_with_latex").iterdir() if p.is_dir()):
        paper = parse_file(folder / f"{folder.name}.pdf")
        if not paper.tables:
            continue
        cell_texts = {v for t in paper.tables for row in t.rows[t.header_rows:] for c in row
                      for v in (m for m in c.text.replace("±", " ").replace("*", " ").split())}
        for paragraph, tables, named in sentence_contexts(paper):
            for _, sentence in sentences(paragraph.text):
                numbers = stated_numbers(sentence)
                if numbers:
                    unchanged += 1
                    alarms += any(c.verdict == "disagrees" for c in check_sentence(sentence, tables, named=named))
                for start, text, _ in numbers:
                    if text not in cell_texts:
                        continue
                    for _ in range(3):  # three different one-digit changes per restated cell
                        positives += 1
                        changed = perturb(text, rng)
                        edited = sentence[:start] + changed + sentence[start + len(text):]
                        checks = check_sentence(edited, tables, named=named)
                        flagged += any(c.start == start and c.verdict == "disagrees" for c in checks)
    return flagged, positives, alarms, unchanged


def scitab() -> tuple[dict[str, tuple[int, int]], int]:
    claims = json.loads((DATA / "scitab" / "sci_tab_dev.json").read_text())
    tally: dict[str, tuple[int, int]] = {"refutes": (0, 0), "supports": (0, 0)}
    for claim in claims:
        view = TableView(id=claim["table_id"], number=None)
        view.column_labels = {k: [name] for k, name in enumerate(claim["table_column_names"])}
        for r, row in enumerate(claim["table_content_values"]):
            for k, text in enumerate(row):
                view.cells.append(CellView(row=r, column=k, text=text, values=cell_values(text) if k else []))
            if row and not cell_values(row[0]):
                view.row_labels[r] = [row[0].replace("[BOLD]", "").strip()]
        checks = check_sentence(claim["claim"], [view], named=True)
        if not checks:
            continue
        verdict = "refutes" if any(c.verdict == "disagrees" for c in checks) else "supports"
        decided, correct = tally[verdict]
        tally[verdict] = (decided + 1, correct + (verdict == claim["label"]))
    return tally, len(claims)


def main() -> int:
    if not (DATA / "pdfs" / "generated_with_latex").is_dir():
        print(f"shared data not found at {DATA}")
        return 1
    started, cpu = time.perf_counter(), time.process_time()
    flagged, positives, alarms, unchanged = latex_set(random.Random(18))
    tally, claims = scitab()
    decided, correct = (sum(v[k] for v in tally.values()) for k in (0, 1))
    report = "\n".join([
        f"changed numbers flagged: {flagged}/{positives} = {flagged / max(positives, 1):.1%}",
        f"false alarms on unchanged sentences with numbers: {alarms}/{unchanged} = "
        f"{alarms / max(unchanged, 1):.1%}",
        f"SciTab dev claims decided from numbers alone: {decided}/{claims}; accuracy on those "
        f"{correct}/{decided} = {correct / max(decided, 1):.1%} ("
        + ", ".join(f"{k}: {c}/{d}" for k, (d, c) in tally.items()) + ")",
        f"wall {time.perf_counter() - started:.1f} s, CPU {time.process_time() - cpu:.1f} s (loaded machine)",
    ])
    print(report)
    results = ROOT / "bench" / "results"
    results.mkdir(parents=True, exist_ok=True)
    (results / "number_agreement.md").write_text(
        f"# number_agreement\n\nCommand: `.venv/bin/python bench/number_agreement.py`\n\n```\n{report}\n```\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
