"""The labelled real-paper bench: real papers of ../shared/data (PDFs of several publishers
and layouts, LaTeX projects, Markdown converted from PDF) parsed by the product, their
title, authors and reference count compared with gold read from each paper by a person
(bench/real_papers_gold.jsonl), and every HIGH and MEDIUM finding of `papermind check`
(plain; also --anonymous where the gold says so) matched to labels written by reading the
paper there (bench/real_papers_labels.jsonl): precision per kind and severity.

    .venv/bin/python bench/real_papers.py [--out real_papers] [--only SUBSTRING]

Writes bench/results/<out>.json and <out>.md; the Markdown compares with
bench/results/real_papers_before.json where it exists. Unlabelled findings are listed (and
written to bench/results/<out>_unlabelled.jsonl, ready to label); a bench, not a CI test.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from real_papers_report import render
from real_papers_score import (
    digest,
    match_labels,
    precision_table,
    references_right,
    score_authors,
    title_right,
)

from papermind.domain.check import CheckReport
from papermind.domain.paper import Paper
from papermind.errors import PapermindError
from papermind.evaluation.runs.jobs import shared_data
from papermind.grounding.paper_check import check_paper, check_project
from papermind.ingest import parse_file
from papermind.ingest.latex_project import read_project
from papermind.services.paper_checks import check_options

BENCH = Path(__file__).resolve().parent
GOLD = BENCH / "real_papers_gold.jsonl"
LABELS = BENCH / "real_papers_labels.jsonl"
RESULTS = BENCH / "results"
KEPT = ("high", "medium")


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def _checked(item: dict[str, Any], path: Path) -> tuple[Paper | None, list[tuple[str, CheckReport]]]:
    """The parsed paper (None for a LaTeX project) and its check report per mode."""
    modes = ["plain", "anonymous"] if item["anonymous"] else ["plain"]
    if path.is_dir():
        project = read_project(path)
        return None, [(m, check_project(project, check_options(anonymous=m == "anonymous")))
                      for m in modes]
    paper = parse_file(path)
    return paper, [(m, check_paper(paper, check_options(anonymous=m == "anonymous")))
                   for m in modes]


def _metadata(item: dict[str, Any], paper: Paper) -> dict[str, Any]:
    out: dict[str, Any] = {"parsed_title": paper.title, "parsed_authors": paper.authors,
                           "parsed_references": len(paper.references)}
    if item.get("title") is not None:
        out["title_right"] = title_right(paper.title, item["title"])
    if item.get("authors") is not None:
        score = score_authors(paper.authors, item["authors"])
        out |= {"authors_exact": score.exact, "authors_matched": score.matched,
                "authors_gold": score.gold, "authors_bad": score.bad}
    if item.get("references") is not None:
        out["references_right"] = references_right(len(paper.references), item["references"])
    return out


def _findings(name: str, reports: list[tuple[str, CheckReport]]) -> list[dict[str, Any]]:
    """HIGH and MEDIUM findings of every mode, once each (the modes they came in listed)."""
    seen: dict[tuple[str, str, str, str], dict[str, Any]] = {}
    for mode, report in reports:
        for f in report.findings:
            if f.severity not in KEPT:
                continue
            row = {"input": name, "kind": f.kind, "severity": f.severity, "where": f.where(),
                   "digest": digest(f.text, f.message), "message": f.message,
                   "text": f.text[:80], "modes": [mode]}
            key = (name, f.kind, row["where"], row["digest"])
            if key in seen:
                seen[key]["modes"].append(mode)
            else:
                seen[key] = row
    return list(seen.values())


def run_one(item: dict[str, Any], data: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    path = data / item["input"]
    cpu = time.process_time()
    row: dict[str, Any] = {"input": item["input"], "layout": item["layout"],
                           "form": "latex" if path.is_dir() else path.suffix.lstrip(".")}
    try:
        paper, reports = _checked(item, path)
    except PapermindError as err:  # a file the product refuses is a result, not a crash
        return row | {"error": str(err), "cpu_s": round(time.process_time() - cpu, 2)}, []
    if paper is not None:
        row |= _metadata(item, paper)
    row["cpu_s"] = round(time.process_time() - cpu, 2)
    return row, _findings(item["input"], reports)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="real_papers", help="results name under bench/results")
    parser.add_argument("--only", default="", help="only inputs whose path contains this")
    parser.add_argument("--code", default="this branch",
                        help="which product code ran, for the record (e.g. 'main at 9878d78')")
    args = parser.parse_args()
    data = shared_data()
    if not (data / "pdfs").is_dir():
        sys.exit(f"shared data not found at {data}: set PAPERMIND_SHARED_DATA")
    gold = [g for g in read_jsonl(GOLD) if args.only in g["input"]]
    cpu = time.process_time()
    inputs, findings = [], []
    for item in gold:
        row, found = run_one(item, data)
        inputs.append(row)
        findings += found
        print(f"{row['cpu_s']:5.2f}s {len(found):3d} findings  {item['input']}", flush=True)
    for finding, label in zip(findings, match_labels(findings, read_jsonl(LABELS)), strict=True):
        finding["label"] = label["label"] if label else None
        finding["why"] = label.get("why", "") if label else ""
    command = "bench/real_papers.py" + (f" --out {args.out}" if args.out != "real_papers" else "") \
        + (f" --only {args.only}" if args.only else "")
    result = {"command": command, "code": args.code, "cpu_s": round(time.process_time() - cpu, 1),
              "inputs": inputs, "precision": precision_table(findings),
              "precision_by_form": precision_table(findings, by_form=True), "findings": findings}
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{args.out}.json").write_text(
        json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    before_path = RESULTS / "real_papers_before.json"
    before = json.loads(before_path.read_text(encoding="utf-8")) \
        if before_path.exists() and args.out != "real_papers_before" else None
    (RESULTS / f"{args.out}.md").write_text(render(result, before), encoding="utf-8")
    todo = [f for f in findings if f["label"] is None]
    unlabelled = RESULTS / f"{args.out}_unlabelled.jsonl"
    unlabelled.unlink(missing_ok=True)
    if todo:
        unlabelled.write_text("".join(json.dumps(f, ensure_ascii=False) + "\n" for f in todo),
                              encoding="utf-8")
    print(f"{len(findings)} HIGH/MEDIUM findings, {len(todo)} unlabelled; "
          f"cpu {result['cpu_s']} s -> bench/results/{args.out}.md")


if __name__ == "__main__":
    main()
