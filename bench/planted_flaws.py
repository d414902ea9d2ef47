"""Planted flaws on ICLR dev papers: recall of the model-free checks alone, per flaw kind.

    .venv/bin/python bench/planted_flaws.py [--papers 10]

Takes the first N bench papers (by id) whose text has a table the number check reads,
plants five flaws in each (kinds rotate; evaluation/runs/review.plant_paper), and reports per
kind how many code caught, and counts the code findings on every unperturbed bench paper
(false alarms, per kind). Writes bench/results/planted_flaws.json with every flaw's anchor.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from papermind.evaluation.runs.flaw_catches import code_findings
from papermind.evaluation.runs.jobs import shared_data
from papermind.evaluation.runs.review import flaw_recall, plant_paper
from papermind.grounding.paper_numbers import paper_checks
from papermind.ingest import parse_bytes

ROOT = Path(__file__).resolve().parents[1]


def dev_papers(folder: Path, count: int) -> list[Path]:
    """The first ``count`` papers (by id) with at least one number read against a table."""
    chosen = []
    for path in sorted(folder.glob("*.txt")):
        paper = parse_bytes(path.read_bytes(), path.name)
        if any(c.verdict == "agrees" for *_, checks in paper_checks(paper) for c in checks):
            chosen.append(path)
        if len(chosen) == count:
            break
    return chosen


def run(count: int) -> dict[str, object]:
    folder = shared_data() / "iclr_bench" / "papers"
    started, cpu = time.perf_counter(), time.process_time()
    flaws = []
    for index, path in enumerate(dev_papers(folder, count)):
        planted = plant_paper(path.read_text(encoding="utf-8"), path.name, index=index)
        flaws += [{**f, "paper": path.stem} for f in planted["flaws"]]
    recall = flaw_recall(flaws)
    alarms = false_alarms(sorted(folder.glob("*.txt")))
    return {"command": f"bench/planted_flaws.py --papers {count}", "papers": count,
            "wall_s": round(time.perf_counter() - started, 1),
            "cpu_s": round(time.process_time() - cpu, 1), "recall_by_code": recall,
            "false_alarms": alarms, "flaws": flaws}


def false_alarms(paths: list[Path]) -> dict[str, object]:
    """Code findings on the unperturbed papers, per kind (each a false alarm unless the paper
    itself is wrong there), with the numbers_disagree ones listed."""
    per_kind: dict[str, int] = {}
    numbers = []
    for path in paths:
        for finding in code_findings(parse_bytes(path.read_bytes(), path.name)):
            per_kind[finding.kind] = per_kind.get(finding.kind, 0) + 1
            if finding.kind == "numbers_disagree":
                numbers.append({"paper": path.stem, "page": finding.page, "line": finding.line,
                                "stated": finding.text})
    return {"papers": len(paths), "by_kind": per_kind, "numbers_disagree": numbers}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=10)
    args = parser.parse_args()
    result = run(args.papers)
    recall = result["recall_by_code"]
    assert isinstance(recall, dict)
    for kind, row in recall["by_kind"].items():
        print(f"{kind:22s} planted {row['planted']:3d}  caught by code {row['code']:.2f}")
    print(f"all: {recall['planted']} planted, code alone {recall['code']:.2f}; "
          f"wall {result['wall_s']} s, cpu {result['cpu_s']} s")
    alarms = result["false_alarms"]
    assert isinstance(alarms, dict)
    print(f"code findings on the {alarms['papers']} unperturbed papers: {alarms['by_kind']}")
    out = ROOT / "bench" / "results" / "planted_flaws.json"
    out.write_text(json.dumps(result, indent=2, default=str), encoding="utf-8")


if __name__ == "__main__":
    main()
