"""Ingestion quality against ../shared/data: titles, sections, references, citations, pages.

Run: .venv/bin/python bench/ingest_quality.py   (writes bench/results/ingest_quality.md)
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import ingest_gold as q

from papermind.errors import InputError
from papermind.ingest import parse_file

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("PAPERMIND_SHARED_DATA") or ROOT.parent / "shared" / "data")


def main() -> int:
    if not DATA.is_dir():
        print(f"shared data not found at {DATA}")
        return 1
    out: list[str] = []
    started = time.perf_counter()
    pdfs = sorted((DATA / "pdfs").rglob("*.pdf"))
    failures, with_lines, pages = [], 0, 0
    parsed = {}
    for pdf in pdfs:
        try:
            paper = parsed[pdf] = parse_file(pdf)
        except InputError as exc:  # IngestError, or a refused PDF (no usable text)
            failures.append(f"{pdf.name}: {exc}")
            continue
        got, total = q.pages_with_lines(paper)
        with_lines, pages = with_lines + got, pages + total
    out.append(f"PDFs parsed: {len(pdfs) - len(failures)}/{len(pdfs)}; pages with lines: "
               f"{with_lines}/{pages} = {with_lines / max(pages, 1):.1%}")
    out += [f"  failed: {f}" for f in failures]

    gold = q.gold_titles(DATA / "pdfs" / "science_parse")
    exact = [(pdf.name, pdf in parsed and q.fold(parsed[pdf].title) == q.fold(title), title)
             for pdf, title in gold.items()]
    hits = sum(ok for _, ok, _ in exact)
    out.append(f"titles exact: {hits}/{len(exact)} = {hits / max(len(exact), 1):.1%}")
    out += [f"  miss: {name}: gold {title!r}" for name, ok, title in exact if not ok]

    sp_papers = {pdf: parsed[pdf] for pdf in sorted((DATA / "pdfs" / "science_parse").glob("*.pdf"))
                 if pdf in parsed}
    fragments = [(pdf.name, t) for pdf, paper in sp_papers.items() for t in q.fragment_sections(paper)]
    numbered = sum(1 for paper in sp_papers.values() for s in paper.sections if s.number)
    out.append(f"science_parse numbered section titles that are sentence fragments: "
               f"{len(fragments)}/{numbered}")
    out += [f"  fragment: {name}: {title!r}" for name, title in fragments]
    severities: dict[str, int] = {}
    for paper in sp_papers.values():
        for finding in paper.findings:
            severities[finding.severity] = severities.get(finding.severity, 0) + 1
    out.append(f"science_parse hidden-text findings by severity: {dict(sorted(severities.items()))}")
    l_titles = eq_found = eq_gold = 0
    s_gold = s_found = s_pred = s_spur = refs_ok = cites_ok = cites_all = 0
    latex_dirs = sorted(p for p in (DATA / "pdfs" / "generated_with_latex").iterdir() if p.is_dir())
    for folder in latex_dirs:
        paper = parse_file(folder / f"{folder.name}.pdf")
        tex = (folder / "latex" / "template.tex").read_text()
        entries = q.bbl_entries((folder / "latex" / "template.bbl").read_text())
        score = q.score_sections(paper, q.tex_headings(tex))
        l_titles += q.fold(paper.title) == q.fold(q.tex_title(tex))
        want = {str(k) for k in range(1, q.tex_equation_count(tex) + 1)}
        eq_found += len(want & {e.label for e in paper.equations if e.label})
        eq_gold += len(want)
        s_gold, s_found = s_gold + score.gold, s_found + score.found
        s_pred, s_spur = s_pred + score.predicted, s_spur + score.spurious
        refs_ok += len(paper.references) == len(entries)
        good, total = q.score_citations(paper, entries, q.tex_citations(tex))
        cites_ok, cites_all = cites_ok + good, cites_all + total
        out.append(f"  {folder.name}: sections {score.found}/{score.gold} (spurious {score.spurious}), "
                   f"refs {len(paper.references)}/{len(entries)}, cites {good}/{total}")
    out.append(f"sections found with right level: {s_found}/{s_gold} = {s_found / max(s_gold, 1):.1%}; "
               f"spurious: {s_spur}/{s_pred} = {s_spur / max(s_pred, 1):.1%}")
    out.append(f"LaTeX titles exact: {l_titles}/{len(latex_dirs)}")
    out.append(f"numbered display equations found (LaTeX papers): {eq_found}/{eq_gold}")
    refs = [r for paper in parsed.values() for r in paper.equation_refs]
    out.append(f"in-text equation references resolved to a found equation (all PDFs): "
               f"{sum(r.equation_id is not None for r in refs)}/{len(refs)}")
    out.append(f"reference count equal to .bbl: {refs_ok}/{len(latex_dirs)} = {refs_ok / max(len(latex_dirs), 1):.1%}")
    out.append(f"\\cite occurrences resolved to the right entry: {cites_ok}/{cites_all} = "
               f"{cites_ok / max(cites_all, 1):.1%}")
    authors, titles, n = q.score_reference_strings(DATA / "reference_strings" / "tagged_references_dev.txt")
    out.append(f"reference strings (n={n}): author list accuracy {authors:.1%}, title accuracy {titles:.1%}")
    out.append(f"elapsed: {time.perf_counter() - started:.1f} s")
    report = "\n".join(out)
    print(report)
    results = ROOT / "bench" / "results"
    results.mkdir(parents=True, exist_ok=True)
    (results / "ingest_quality.md").write_text(
        f"# ingest_quality\n\nCommand: `.venv/bin/python bench/ingest_quality.py`\n\n```\n{report}\n```\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
