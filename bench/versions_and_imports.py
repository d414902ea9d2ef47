"""Identity and import on the shared real PDFs: false version links, re-saved copies, imports.

1. Add every shared PDF (all folders): how many distinct papers were linked as versions of
   one another (each such link is a false positive unless the papers really are the same).
2. Add a pdfium re-save of each (other bytes, same paper): how many were linked to their
   original (recall), and to the right one.
3. A Zotero data directory (the tests' real-schema builder) with 20 items, 15 PDFs: time of
   the first import and of a second (which adds nothing). Wall and CPU time (process_time).

    .venv/bin/python bench/versions_and_imports.py [--data ../shared/data]
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
import time
from pathlib import Path

import pypdfium2 as pdfium

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from tests.interchange.test_zotero_import import COLLECTIONS, zotero_items  # noqa: E402
from tests.interchange.zotero_factory import build_zotero  # noqa: E402
from tests.support.shared_data import PDF_NAMES  # noqa: E402

from papermind.config import Settings  # noqa: E402
from papermind.services.container import Container  # noqa: E402


def container(home: Path) -> Container:
    settings = Settings(home=home)
    return Container(settings.model_copy(
        update={"search": settings.search.model_copy(update={"embedder": "hashing"})}))


def resave(source: Path, target: Path) -> Path:
    document = pdfium.PdfDocument(source.read_bytes())
    buffer = io.BytesIO()
    document.save(buffer, version=17)
    document.close()
    target.write_bytes(buffer.getvalue())
    return target


def versions(data: Path, tmp: Path) -> None:
    pdfs = sorted((data / "pdfs").rglob("*.pdf"))
    with container(tmp / "v") as box:
        added = [r for r in box.library.add(pdfs) if r.status == "added"]
        false_links = [(r.path, r.version_of) for r in added if r.version_of]
        print(f"distinct PDFs added: {len(added)} of {len(pdfs)}; linked as versions of one "
              f"another: {len(false_links)}")
        for path, other in false_links:
            print(f"  {Path(path).name} -> {box.papers.record(other or '').source_name}")
        copies = [resave(Path(r.path), tmp / f"copy-{i}.pdf") for i, r in enumerate(added)]
        results = box.library.add(copies)
        right = sum(c.version_of == r.paper_id for c, r in zip(results, added, strict=True))
        linked = sum(c.version_of is not None for c in results)
        print(f"re-saved copies: {len(results)}; linked {linked}, to their original {right}")
        unlinked = [Path(r.path).name for c, r in zip(results, added, strict=True) if not c.version_of]
        print(f"  not linked (no DOI/arXiv id and no usable title + first author): {unlinked}")


def imports(data: Path, tmp: Path) -> None:
    pdfs = [data / "pdfs" / "science_parse" / f"{name}.pdf" for name in PDF_NAMES]
    folder = build_zotero(tmp / "Zotero", zotero_items(pdfs), COLLECTIONS)
    with container(tmp / "z") as box:
        for run in ("first", "second"):
            wall, cpu = time.perf_counter(), time.process_time()
            results = box.imports.import_source("zotero", folder)
            counts = {s: sum(r.status == s for r in results) for s in ("added", "exists", "skipped", "failed")}
            print(f"zotero import, {run} run: {counts}; wall {time.perf_counter() - wall:.2f} s, "
                  f"CPU {time.process_time() - cpu:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        versions(args.data, Path(tmp))
        imports(args.data, Path(tmp))


if __name__ == "__main__":
    main()
