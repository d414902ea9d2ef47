"""Reference lists and `citation_without_entry` on the real papers of ../shared/data.

    .venv/bin/python bench/reference_counts.py [--out bench/results/reference_counts.json]

Counts parsed entries against each list's true item count: the Docling Markdown papers
(neurips_md, gold counted by hand into bench/reference_counts_gold.json), the s2orc_doc2json
PDFs (their S2ORC parse's bibliography), the generated_with_latex PDFs (the exact .bbl);
science_parse PDFs have no gold list, so only their counts are printed. Then every HIGH
`citation_without_entry` finding of `check` on all of them, written to the JSON file so a
person can label each true or false.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from papermind.domain import Paper
from papermind.errors import PapermindError
from papermind.grounding.paper_check import check_paper
from papermind.ingest import parse_file
from papermind.services.paper_checks import check_options

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
from ingest_gold import bbl_entries  # noqa: E402
from shared_papers import pdfs_dir  # noqa: E402

TOLERANCE = 0.05
"""A parsed count within this share of the true count is 'within 5%'."""


def _gold_papers(data: Path) -> list[tuple[str, Path, int | None]]:
    """(set, file, true count or None) of every paper the bench reads."""
    gold = json.loads((ROOT / "reference_counts_gold.json").read_text())["neurips_md"]
    out: list[tuple[str, Path, int | None]] = [
        ("neurips_md", data / "neurips_md" / name, count) for name, count in sorted(gold.items())]
    for pdf in sorted((data / "pdfs" / "s2orc_doc2json").glob("*.pdf")):
        parse = data / "pdfs" / "s2orc_doc2json_fixtures" / "pdf" / f"{pdf.stem}.json"
        entries = json.loads(parse.read_text())["pdf_parse"]["bib_entries"]
        out.append(("s2orc_doc2json", pdf, len(entries)))
    for folder in sorted(p for p in (data / "pdfs" / "generated_with_latex").iterdir() if p.is_dir()):
        bbl = (folder / "latex" / "template.bbl").read_text()
        out.append(("generated_with_latex", folder / f"{folder.name}.pdf", len(bbl_entries(bbl))))
    out += [("science_parse", pdf, None) for pdf in sorted((data / "pdfs" / "science_parse").glob("*.pdf"))]
    return out


def _high_citations(paper: Paper) -> list[dict[str, Any]]:
    report = check_paper(paper, check_options())
    return [{"message": f.message, "page": f.anchor.page if f.anchor else None,
             "line": f.anchor.line_start if f.anchor else None, "text": f.text}
            for f in report.findings if f.kind == "citation_without_entry" and f.severity == "high"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "results" / "reference_counts.json")
    args = parser.parse_args()
    pdfs = pdfs_dir()
    if pdfs is None:
        print("shared data absent: nothing to measure")
        return
    rows, cpu = [], time.process_time()
    for group, path, gold in _gold_papers(pdfs.parent):
        try:
            paper = parse_file(path)
        except PapermindError as err:
            print(f"skip {path.name}: {err}")
            continue
        high = _high_citations(paper)
        rows.append({"set": group, "file": path.name, "gold": gold, "parsed": len(paper.references),
                     "citations": len(paper.citations),
                     "unresolved": sum(not c.reference_keys for c in paper.citations),
                     "high_citation_without_entry": high})
        print(f"{group:21} {path.name:34} refs {len(paper.references):4}/{gold if gold is not None else '?':>4}"
              f"  cites {len(paper.citations):4} unresolved {rows[-1]['unresolved']:4}  HIGH {len(high)}")
    print()
    for group in dict.fromkeys(r["set"] for r in rows):
        mine = [r for r in rows if r["set"] == group]
        scored = [r for r in mine if r["gold"] is not None]
        close = sum(abs(r["parsed"] - r["gold"]) <= TOLERANCE * r["gold"] for r in scored)
        exact = sum(r["parsed"] == r["gold"] for r in scored)
        gold = sum(r["gold"] for r in scored)
        parsed = sum(r["parsed"] for r in scored)
        high = sum(len(r["high_citation_without_entry"]) for r in mine)
        score = (f"within 5% {close}/{len(scored)}, exact {exact}/{len(scored)}, entries {parsed}/{gold}"
                 if scored else f"entries {sum(r['parsed'] for r in mine)} (no gold)")
        print(f"{group}: {len(mine)} papers, {score}, HIGH citation_without_entry {high}")
    print(f"CPU {time.process_time() - cpu:.1f} s")
    args.out.write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
