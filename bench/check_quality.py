"""The pre-submission check (`papermind check`) on the dev papers: findings per clean paper by
kind, recall on planted flaws (anchor within 2 lines), CPU time per check.

    .venv/bin/python bench/check_quality.py [--papers 60] [--seed 0]

Clean: every ICLR bench text checked as is, plain and with --anonymous (the texts are
camera-ready, so their author block is a true anonymity finding), plus the machine-written
LaTeX papers (PDF and LaTeX project) and a few real PDFs. Planted: in each ICLR text one
flaw of each kind in perturb.flaws.CHECK_KINDS (a citation with no entry, a table and a
figure that do not exist, an instruction to reviewers, a self-identifying citation, a
duplicated bibliography entry), checked with --anonymous; a flaw counts as found when a
finding of its kind that the clean paper did not have lies within 2 lines of it. Writes
bench/results/check_quality.json (every finding of the clean papers, for labelling).
"""

from __future__ import annotations

import argparse
import json
import random
import time
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

from papermind.domain.check import CheckFinding, CheckReport
from papermind.evaluation.perturb.flaws import CHECK_KINDS, PlantedFlaw, plant_flaws
from papermind.evaluation.runs.jobs import shared_data
from papermind.grounding.paper_check import check_paper, check_project
from papermind.ingest import parse_bytes, parse_file
from papermind.ingest.latex_project import read_project
from papermind.services.paper_checks import check_options

ROOT = Path(__file__).resolve().parents[1]
SLACK = 2
FINDS = {"missing_citation": ("citation_without_entry",),
         "wrong_reference": ("reference_to_missing_label",),
         "missing_figure": ("reference_to_missing_label",),
         "reviewer_instruction": ("instruction_to_reviewers", "hidden_text", "visible_instruction"),
         "self_citation": ("self_identifying",),
         "duplicate_entry": ("duplicate_entry",)}
"""Planted flaw kind -> the finding kinds that name it."""
REAL_PDFS = ("science_parse/*.pdf", "s2orc_doc2json/*.pdf")


def _timed(run: Any) -> tuple[CheckReport, float]:
    cpu = time.process_time()
    report = run()
    return report, time.process_time() - cpu


def _key(f: CheckFinding) -> tuple[str, str, str]:
    """A finding without its position (planting shifts lines)."""
    return f.kind, f.message, f.text


def _near(f: CheckFinding, flaw: PlantedFlaw) -> bool:
    a = f.anchor
    return a is not None and a.page == flaw.anchor.page and \
        abs(a.line_start - flaw.anchor.line_start) <= SLACK


def planted(path: Path, seed: int) -> list[dict[str, Any]]:
    """One flaw of each check kind planted in one text; which were found."""
    text = path.read_text(encoding="utf-8")
    clean = parse_bytes(text.encode(), path.name)
    rng = random.Random(zlib.crc32(path.name.encode()) + seed)
    flawed = plant_flaws(text, clean, CHECK_KINDS, rng)
    options = check_options(anonymous=True)
    before = {_key(f) for f in check_paper(clean, options).findings}
    paper = parse_bytes(flawed.text.encode(), path.name)
    report, cpu = _timed(lambda: check_paper(paper, options))
    new = [f for f in report.findings if _key(f) not in before]
    rows = []
    for flaw in flawed.flaws:
        hit = next((f for f in new if f.kind in FINDS[flaw.kind] and _near(f, flaw)), None)
        rows.append({"paper": path.stem, "kind": flaw.kind, "page": flaw.anchor.page,
                     "line": flaw.anchor.line_start, "planted": flaw.planted[:200],
                     "found": hit is not None, "finding": hit.where() if hit else None,
                     "cpu_s": round(cpu, 2)})
    return rows


def clean_runs(texts: list[Path]) -> dict[str, Any]:
    """Findings on the unmodified papers (plain and --anonymous), per kind, with CPU time."""
    out: dict[str, Any] = {"papers": [], "by_kind": Counter(), "by_kind_anonymous": Counter()}
    inputs: list[tuple[str, Any]] = [(p.stem, lambda p=p: parse_bytes(p.read_bytes(), p.name))
                                     for p in texts]
    data = shared_data() / "pdfs"
    for folder in sorted((data / "generated_with_latex").glob("*/")):
        pdfs = sorted(folder.glob("*.pdf"))
        if pdfs:
            inputs.append((f"latex-pdf/{folder.name}", lambda p=pdfs[0]: parse_file(p)))
        if (folder / "latex" / "template.tex").exists() or list(folder.rglob("*.tex")):
            inputs.append((f"latex-src/{folder.name}", lambda f=folder: read_project(
                next(iter(sorted(f.rglob("template.tex")) or sorted(f.rglob("*.tex")))))))
    for pattern in REAL_PDFS:
        inputs += [(f"pdf/{p.name}", lambda p=p: parse_file(p)) for p in sorted(data.glob(pattern))[:3]]
    for name, load in inputs:
        doc = load()
        for anonymous, counter in ((False, "by_kind"), (True, "by_kind_anonymous")):
            options = check_options(anonymous=anonymous)
            run = (lambda d=doc, o=options: check_project(d, o)) if name.startswith("latex-src") \
                else (lambda d=doc, o=options: check_paper(d, o))
            report, cpu = _timed(run)
            out[counter].update(f.kind for f in report.findings)
            out["papers"].append({"paper": name, "anonymous": anonymous, "cpu_s": round(cpu, 2),
                                  "findings": [{"kind": f.kind, "severity": f.severity,
                                                "where": f.where(), "message": f.message,
                                                "text": f.text[:200]} for f in report.findings]})
    return out


def summary(clean: dict[str, Any], flaws: list[dict[str, Any]], iclr: int) -> dict[str, Any]:
    rows = [p for p in clean["papers"] if not p["anonymous"]]
    iclr_rows = [p for p in rows if "/" not in p["paper"]]
    blind = [p for p in clean["papers"] if p["anonymous"] and "/" not in p["paper"]]
    by_kind = {k: {"planted": sum(f["kind"] == k for f in flaws),
                   "found": sum(f["found"] for f in flaws if f["kind"] == k)} for k in CHECK_KINDS}
    cpu = [p["cpu_s"] for p in clean["papers"]] + [f["cpu_s"] for f in flaws]
    return {"iclr_papers": iclr,
            "findings_per_clean_iclr_paper": round(
                sum(len(p["findings"]) for p in iclr_rows) / max(len(iclr_rows), 1), 2),
            "findings_per_clean_iclr_paper_anonymous": round(
                sum(len(p["findings"]) for p in blind) / max(len(blind), 1), 2),
            "findings_per_clean_input_all": round(
                sum(len(p["findings"]) for p in rows) / max(len(rows), 1), 2),
            "recall": round(sum(f["found"] for f in flaws) / max(len(flaws), 1), 3),
            "recall_by_kind": by_kind, "cpu_s_max": max(cpu, default=0.0),
            "cpu_s_mean": round(sum(cpu) / max(len(cpu), 1), 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    texts = sorted((shared_data() / "iclr_bench" / "papers").glob("*.txt"))[:args.papers]
    started = time.perf_counter()
    flaws = [row for path in texts for row in planted(path, args.seed)]
    clean = clean_runs(texts)
    result = {"command": f"bench/check_quality.py --papers {args.papers} --seed {args.seed}",
              "summary": summary(clean, flaws, len(texts)),
              "wall_s": round(time.perf_counter() - started, 1),
              "clean_by_kind": dict(clean["by_kind"]),
              "clean_by_kind_anonymous": dict(clean["by_kind_anonymous"]),
              "missed": [f for f in flaws if not f["found"]], "flaws": flaws,
              "clean": clean["papers"]}
    out = ROOT / "bench" / "results" / "check_quality.json"
    out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps({k: result[k] for k in ("summary", "clean_by_kind",
                                             "clean_by_kind_anonymous")}, indent=1))
    for miss in result["missed"]:
        print("missed", miss["paper"], miss["kind"], f"{miss['page']}:{miss['line']}",
              miss["planted"][:120])


if __name__ == "__main__":
    main()
