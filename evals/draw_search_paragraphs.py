"""Print the paragraphs on which evals/search_questions_written.jsonl's questions were written.

    PAPERMIND_SHARED_DATA=/work/shared/data PYTHONPATH=src .venv/bin/python evals/draw_search_paragraphs.py

The first 12 ICLR 2022 submissions of iclr_bench by SHA-256 of the file name and the 7
LaTeX-backed papers; of each paper's paragraphs of >= 40 words, the abstract and the last 15%
(references, appendices) are left out and 5 are drawn with a random generator seeded by the
file name. One question was written per drawn paragraph, except for code, tables without
words and garbled formulas, with a verbatim snippet of the paragraph as its evidence.
"""

from __future__ import annotations

import hashlib
import os
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from papermind.ingest import parse_file  # noqa: E402

DATA = Path(os.environ.get("PAPERMIND_SHARED_DATA", ROOT.parent / "shared" / "data"))


def main() -> None:
    iclr = sorted((DATA / "iclr_bench" / "papers").glob("*.txt"),
                  key=lambda p: hashlib.sha256(p.stem.encode()).hexdigest())[:12]
    latex = sorted((DATA / "pdfs" / "generated_with_latex").glob("*/*.pdf"))
    for path in [*iclr, *latex]:
        paper = parse_file(path)
        paragraphs = [p for p in paper.paragraphs if len(p.text.split()) >= 40]
        body = paragraphs[1:int(len(paragraphs) * 0.85)] or paragraphs
        drawn = sorted(random.Random(path.stem).sample(range(len(body)), min(5, len(body))))
        print(f"=== {path.relative_to(DATA)} title: {paper.title}")
        for i in drawn:
            print(f"--- [{i}] {body[i].text[:900]}")


if __name__ == "__main__":
    main()
