"""OCR of scanned papers: character error rate and CPU seconds per page, RapidOCR vs Tesseract.

Run: .venv/bin/python bench/ocr_quality.py [--pages N] [--tesseract]
     (writes bench/results/ocr_quality.md)

A few born-digital PDFs of ../shared/data/pdfs are cut to their first N pages, rendered at
200 dpi and rebuilt as image-only PDFs (the last page of each turned 90 degrees, as if
scanned sideways), then added with ``parse_file`` (ingest.ocr = auto, 2 OCR threads). CER
is the Levenshtein distance between the stored page text (running heads, flow lines, other
furniture) and the original page's text layer, over the latter's length, whitespace
collapsed: reading order differences and the text layer's own marks (U+FFFE soft hyphens)
count as errors too, so the stored text of the born-digital parse of the same page is
given as a second reference (same pipeline, same order). CPU seconds are the process's
user+system time for the whole parse (all threads; model loading excluded by a warm-up):
the machine is shared, so wall time says little. ``--tesseract`` also runs Debian's
``tesseract`` 5 CLI (eng / chi_sim, its default page segmentation) on the same page images
(upright ones: Tesseract is given no rotation work) and reports the same two numbers.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.support.shared_data import SHARED_DATA  # noqa: E402 - after the path insert

DATA = SHARED_DATA / "pdfs"
PAPERS = [("science_parse/P07-1088.pdf", "eng"),  # ACL 2007, two columns
          ("science_parse/agarwal11.pdf", "eng"),  # JMLR-style, one column, math
          ("generated_with_latex/gan_diffusion/gan_diffusion.pdf", "eng"),  # ICLR style
          ("zh/cjc_jisuanji_xuebao_sample.pdf", "chi_sim")]  # Chinese journal, two columns


def _cut(source: Path, pages: int, target: Path) -> Path:
    import pypdfium2 as pdfium
    document, out = pdfium.PdfDocument(str(source)), pdfium.PdfDocument.new()
    out.import_pages(document, pages=list(range(min(pages, len(document)))))
    out.save(str(target))
    out.close()
    document.close()
    return target


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _page_text(page) -> str:  # type: ignore[no-untyped-def]
    """Furniture at the top (running heads) first, then the flow, then the rest."""
    top = [ln for ln in page.furniture if ln.box and ln.box.y0 < page.height / 2]
    bottom = [ln for ln in page.furniture if ln not in top]
    return " ".join(ln.text for ln in top + page.lines + bottom)


def _tesseract(images: list, lang: str) -> tuple[list[str], float, float]:  # type: ignore[type-arg]
    texts = []
    cpu, wall = _child_cpu(), time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        for index, image in enumerate(images):
            path = Path(folder) / f"{index}.png"
            image.save(path)
            done = subprocess.run(["tesseract", str(path), "stdout", "-l", lang],
                                  capture_output=True, text=True, check=True,
                                  env={**os.environ, "OMP_THREAD_LIMIT": "2"})
            texts.append(done.stdout)
    return texts, _child_cpu() - cpu, time.perf_counter() - wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=2, help="first pages of each paper")
    parser.add_argument("--tesseract", action="store_true", help="also run Debian's tesseract")
    args = parser.parse_args()
    if not DATA.is_dir():
        sys.exit(f"no shared data at {DATA}")
    from tests.ingest.scan_pdf import char_error_rate, page_images, scanned_pdf, text_layer

    from papermind.ingest import ocr_engine
    if not ocr_engine.available():
        sys.exit("the 'ocr' extra is not installed (pip install -e '.[ocr]')")
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        from papermind.ingest import parse_file
        warm = _cut(DATA / PAPERS[0][0], 1, tmp / "warm.pdf")
        parse_file(scanned_pdf(warm, tmp / "warm-scan.pdf"))  # loads the models
        for name, lang in PAPERS:
            source = _cut(DATA / name, args.pages, tmp / "source.pdf")
            expected = text_layer(source)
            pages = len(expected)
            scan = scanned_pdf(source, tmp / "scan.pdf", sideways={pages: 90})
            cpu, wall = _cpu(), time.perf_counter()
            paper = parse_file(scan)
            cpu, wall = _cpu() - cpu, time.perf_counter() - wall
            cers = [char_error_rate(_page_text(page), text)
                    for page, text in zip(paper.pages, expected, strict=True)]
            born = [_page_text(page) for page in parse_file(source).pages]
            same = [char_error_rate(_page_text(page), text)
                    for page, text in zip(paper.pages, born, strict=True)]
            row = {"paper": name, "pages": pages, "ocr_pages": len(paper.ocr_pages),
                   "cer": cers, "cer_parse": same, "cpu": cpu / pages, "wall": wall / pages}
            if args.tesseract and shutil.which("tesseract"):
                texts, t_cpu, t_wall = _tesseract(page_images(source, 200), lang)
                row["t_cer"] = [char_error_rate(t, e) for t, e in zip(texts, expected, strict=True)]
                row["t_cpu"], row["t_wall"] = t_cpu / pages, t_wall / pages
            rows.append(row)
            print(row, flush=True)
    _write(rows, args)


def _write(rows: list[dict], args: argparse.Namespace) -> None:  # type: ignore[type-arg]
    def cers(values: list[float]) -> str:
        return " / ".join(f"{v:.3f}" for v in values)

    lines = ["# OCR quality and speed", "",
             f"Command: `.venv/bin/python bench/ocr_quality.py --pages {args.pages}"
             f"{' --tesseract' if args.tesseract else ''}` on {os.cpu_count()} shared cores "
             f"({time.strftime('%Y-%m-%d')}). Pages rendered at 200 dpi and rebuilt image-only; "
             "each paper's last page turned 90 degrees (scanned sideways). CER per page against "
             "the original text layer (whitespace collapsed; order differences count). "
             "CPU s/page = user+system time of the parse, all threads (models loaded before).", "",
             "| paper | pages OCR'd | CER per page vs text layer | vs born-digital parse "
             "| CPU s/page | wall s/page |"
             + (" Tesseract CER vs text layer | Tesseract CPU s/page |" if args.tesseract else ""),
             "| --- | --- | --- | --- | --- | --- |" + (" --- | --- |" if args.tesseract else "")]
    for row in rows:
        tail = (f" {cers(row['t_cer'])} | {row['t_cpu']:.1f} |" if "t_cer" in row else
                (" - | - |" if args.tesseract else ""))
        lines.append(f"| {row['paper']} | {row['ocr_pages']}/{row['pages']} | {cers(row['cer'])} "
                     f"| {cers(row['cer_parse'])} | {row['cpu']:.1f} | {row['wall']:.1f} |{tail}")
    out = ROOT / "bench" / "results" / "ocr_quality.md"
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(out.read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
