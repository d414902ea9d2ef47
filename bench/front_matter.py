"""Title, authors and abstract on every shared real input: PDFs, converted Markdown, scans.

Run: .venv/bin/python bench/front_matter.py [--no-ocr]   (writes bench/results/front_matter.md)

Gold: science_parse titles and authors from their own files, LaTeX titles from the .tex
(bench/ingest_gold.py); the converted Markdown papers, the s2orc, ai_scientist and Chinese
PDFs from bench/front_matter_gold.json (read off each paper's first page). Titles compare
with case and punctuation folded. Three more views of the same papers:
- "md + line numbers": each Markdown paper with a run of line-number lines ('1' .. '22', as
  a converted line-numbered submission starts) before its title;
- "scans": the first page of some PDFs rendered at 200 dpi and rebuilt image-only, read by
  OCR (needs the 'ocr' extra; --no-ocr skips it).
Counted everywhere: authors that still carry an affiliation marker, authors that are
headings, titles that are guesses (title_source first_line / file_name), abstracts found.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import ingest_gold as q

from papermind.domain.paper import Paper
from papermind.errors import InputError
from papermind.ingest import parse_bytes, parse_file

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.support.shared_data import SHARED_DATA as DATA  # noqa: E402 - after the path insert

GOLD = json.loads((ROOT / "bench" / "front_matter_gold.json").read_text(encoding="utf-8"))
SCANS = ["science_parse/P07-1088.pdf", "science_parse/agarwal11.pdf", "science_parse/fader11.pdf",
         "science_parse/map-reduce.pdf", "science_parse/smith07.pdf", "s2orc_doc2json/N18-3011.pdf",
         "ai_scientist_fewshot/attention.pdf", "ai_scientist_fewshot/2_carpe_diem.pdf",
         "generated_with_latex/gan_diffusion/gan_diffusion.pdf", "zh/cjc_jisuanji_xuebao_sample.pdf"]


@dataclass(slots=True)
class Tally:
    name: str
    titles: int = 0
    titled: int = 0
    papers: int = 0
    marked: list[str] = field(default_factory=list)
    headings: list[str] = field(default_factory=list)
    guesses: int = 0
    abstracts: int = 0
    author_lists: int = 0
    author_lists_ok: int = 0
    misses: list[str] = field(default_factory=list)

    def add(self, label: str, paper: Paper, title: str | None, authors: list[str] | None) -> None:
        self.papers += 1
        self.marked += [f"{label}: {a!r}" for a in q.marked_authors(paper.authors)]
        self.headings += [f"{label}: {a!r}" for a in q.heading_authors(paper.authors)]
        self.guesses += paper.title_source in ("first_line", "file_name")
        self.abstracts += bool(paper.abstract)
        if title is not None:
            self.titled += 1
            ok = q.fold_title(paper.title) == q.fold_title(title)
            self.titles += ok
            if not ok:
                self.misses.append(f"{label}: got {paper.title!r}, gold {title!r}")
        if authors is not None:
            self.author_lists += 1
            same = [q.fold_title(a) for a in paper.authors] == [q.fold_title(a) for a in authors]
            self.author_lists_ok += same
            if not same:
                self.misses.append(f"{label}: authors {paper.authors}, gold {authors}")

    def lines(self) -> list[str]:
        out = [f"{self.name}: {self.papers} papers; titles exact {self.titles}/{self.titled}; "
               f"author lists exact {self.author_lists_ok}/{self.author_lists}; authors with a "
               f"marker {len(self.marked)}; heading authors {len(self.headings)}; title "
               f"guesses {self.guesses}; abstracts {self.abstracts}/{self.papers}"]
        return out + [f"  {m}" for m in [*self.misses, *self.marked, *self.headings]]


def _rel(path: Path) -> str:
    return path.relative_to(DATA).as_posix()


def _pdf_sets() -> Iterable[tuple[str, list[tuple[Path, str | None, list[str] | None]]]]:
    sp = DATA / "pdfs" / "science_parse"
    titles, authors = q.gold_titles(sp), q.gold_authors(sp)
    yield "science_parse", [(p, titles.get(p), authors.get(p)) for p in sorted(sp.glob("*.pdf"))]
    latex = sorted(p for p in (DATA / "pdfs" / "generated_with_latex").iterdir() if p.is_dir())
    yield "generated_with_latex", [
        (d / f"{d.name}.pdf", q.tex_title((d / "latex" / "template.tex").read_text()), None)
        for d in latex]
    for folder in ("s2orc_doc2json", "ai_scientist_fewshot", "zh"):
        pdfs = sorted((DATA / "pdfs" / folder).glob("*.pdf"))
        yield folder, [(p, GOLD["titles"].get(_rel(p)), GOLD["authors"].get(_rel(p))) for p in pdfs]


def _run(name: str, items: Iterable[tuple[str, Callable[[], Paper], str | None, list[str] | None]]
         ) -> Tally:
    tally = Tally(name)
    for label, parse, title, authors in items:
        try:
            paper = parse()
        except InputError as exc:  # a refused file is reported, not fatal
            tally.misses.append(f"{label}: {type(exc).__name__}: {exc}")
            continue
        tally.add(label, paper, title, authors)
    return tally


def _numbered(text: str, run: int = 22) -> bytes:
    return ("\n\n".join(str(n) for n in range(1, run + 1)) + "\n\n" + text).encode()


def _markdown() -> list[tuple[str, Path, str | None, list[str] | None]]:
    return [(p.name, p, GOLD["titles"].get(_rel(p)), GOLD["authors"].get(_rel(p)))
            for p in sorted((DATA / "neurips_md").glob("*.md"))]


def _scans(folder: Path) -> list[tuple[str, Callable[[], Paper], str | None, None]]:
    import pypdfium2 as pdfium
    from tests.ingest.scan_pdf import scanned_pdf
    titles = {_rel(p): t for _, items in _pdf_sets() for p, t, _ in items if t}
    out = []
    for rel in SCANS:
        source = DATA / "pdfs" / rel
        first, scan = folder / f"{source.stem}-p1.pdf", folder / f"{source.stem}-scan.pdf"
        document, page = pdfium.PdfDocument(str(source)), pdfium.PdfDocument.new()
        page.import_pages(document, pages=[0])
        page.save(str(first))
        scanned_pdf(first, scan)
        out.append((rel, lambda s=scan: parse_file(s), titles.get(f"pdfs/{rel}"), None))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--no-ocr", action="store_true", help="skip the scanned pages")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "front_matter.md"))
    args = parser.parse_args()
    if not DATA.is_dir():
        print(f"shared data not found at {DATA}")
        return 1
    started = time.process_time()
    tallies = [_run(name, ((p.name, lambda p=p: parse_file(p), t, a) for p, t, a in items))
               for name, items in _pdf_sets()]
    md = _markdown()
    tallies.append(_run("neurips_md", ((n, lambda p=p: parse_file(p), t, a) for n, p, t, a in md)))
    tallies.append(_run("neurips_md + line numbers", (
        (n, lambda p=p: parse_bytes(_numbered(p.read_text(encoding="utf-8")), p.name), t, a)
        for n, p, t, a in md)))
    if not args.no_ocr:
        with tempfile.TemporaryDirectory() as tmp:
            tallies.append(_run("scans (first page, OCR)", _scans(Path(tmp))))
    report = [line for tally in tallies for line in tally.lines()]
    report.append(f"CPU: {time.process_time() - started:.1f} s")
    text = "\n".join(report)
    print(text)
    Path(args.out).write_text("# front_matter\n\nCommand: `.venv/bin/python bench/front_matter.py`"
                              f"\n\n```\n{text}\n```\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
