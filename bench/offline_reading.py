"""Offline deep reading with the bundled model, judged the way issue 33 checks it.

    .venv/bin/python bench/offline_reading.py [PDF ...] [--out bench/results/offline_reading.md]
    (default: the bundled example paper and a few shared PDFs; PAPERMIND_SHARED_DATA=DIR)

Per paper: wall and CPU seconds (llama.cpp threads included), points, verified points,
verified points explained in the model's words, pages and kinds of verified points, and the
checks that must hold on every paper:

- every verified item's text is in its anchored lines and shares content words with them;
- no sentence repeated 3 or more times in any point or question.

Needs the `local` extra (xllamacpp and the bundled model). CPU seconds add the bundled
model's server process (it runs outside this one).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from papermind.config import load_settings  # noqa: E402
from papermind.domain.reading import ReadingReport  # noqa: E402
from papermind.grounding.explanations import sentences_of  # noqa: E402
from papermind.grounding.relatedness import content_keys  # noqa: E402
from papermind.grounding.text import compact  # noqa: E402
from papermind.llm.local_server import (  # noqa: E402
    read_state,
    server_cpu_seconds,
    server_dir,
    stop_server,
)
from papermind.services.container import Container  # noqa: E402
from papermind.services.reading import read_paper  # noqa: E402

DEFAULT = ["examples/example_paper.pdf"]
SHARED = ["pdfs/science_parse/e4faf2c1d76b9bf8f8b4524dfb8c5c6b93be5f35.pdf",  # 21 pages
          "pdfs/ai_scientist_fewshot/132_automated_relational.pdf",  # 17 pages
          "pdfs/ai_scientist_fewshot/attention.pdf", "pdfs/science_parse/P14-1059.pdf"]


def shared_dir() -> Path | None:
    env = os.environ.get("PAPERMIND_SHARED_DATA")
    for base in ([Path(env)] if env else []) + [p / "shared" / "data" for p in ROOT.parents[:3]]:
        if base.is_dir():
            return base
    return None


def judge(report: ReadingReport) -> dict[str, object]:
    """The issue's per-paper figures and the exceptions to its hard checks."""
    points = report.points
    verified = [p for p in points if p.verified]
    exceptions = []
    for p in verified:
        anchored = " ".join(e.matched_text for e in p.evidence if e.found)
        flat = compact(anchored)  # line breaks, hyphens and spacing aside
        own = re.sub(r"^\[[^\]]*\]\s*|\s\[Equation[^\]]*\]", " ", p.text)
        if p.source == "extracted" and compact(own)[:40] not in flat:
            exceptions.append(f"{p.id}: its text is not in the anchored lines")
        if not set(content_keys(p.text)) & set(content_keys(anchored)):
            exceptions.append(f"{p.id}: shares no content word with its lines")
    repeated = []
    for text in [*(f"{p.text} {p.explanation}" for p in points),
                 *(q.text for q in report.questions)]:
        counts = Counter(" ".join(s.lower().split()) for s in sentences_of(text))
        repeated += [s for s, n in counts.items() if n >= 3]
    pages = {e.anchor.page for p in verified for e in p.evidence if e.anchor is not None}
    return {"points": len(points), "verified": len(verified),
            "explained": sum(bool(p.explanation) for p in verified),
            "pages": len(pages), "kinds": len({p.kind for p in verified}),
            "questions": len(report.questions),
            "questions_cite_lines": all(q.anchors for q in report.questions),
            "exceptions": exceptions, "repeated": repeated}


async def read_one(path: Path) -> tuple[ReadingReport, float, float]:
    with tempfile.TemporaryDirectory() as home:
        os.environ["PAPERMIND_HOME"] = home
        os.environ["PAPERMIND_LLM__LOCAL__SCOPE"] = "home"  # its own server, measured, stopped
        with Container(load_settings(Path(home))) as container:
            wall, cpu = time.perf_counter(), time.process_time()
            try:
                run = await read_paper(container, path, out_dir=Path(home) / "out")
                return run.report, time.perf_counter() - wall, (
                    time.process_time() - cpu + server_cpu(Path(home)))
            finally:
                stop_server(Path(home))


def server_cpu(home: Path) -> float:
    """CPU seconds of this home's bundled-model server (started for this reading)."""
    state = read_state(server_dir(home))
    return (server_cpu_seconds(state.pid) or 0.0) if state is not None else 0.0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("pdfs", nargs="*")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "offline_reading.md"))
    args = parser.parse_args()
    paths = [Path(p) for p in args.pdfs] or [ROOT / p for p in DEFAULT]
    if not args.pdfs and (data := shared_dir()) is not None:
        paths += [data / p for p in SHARED if (data / p).is_file()]
    rows = ["| paper | pages | wall s | CPU s | points | verified | explained (of verified) "
            "| pages / kinds verified | questions (cite lines) | exceptions | repeated |",
            "|---|---|---|---|---|---|---|---|---|---|---|"]
    for path in paths:
        report, wall, cpu = asyncio.run(read_one(path))
        j = judge(report)
        share = j["verified"] / max(1, j["points"])  # type: ignore[operator]
        rows.append(
            f"| {path.name} | {_pages(path)} | {wall:.0f} | "
            f"{cpu:.0f} | {j['points']} | {j['verified']} ({share:.0%}) | {j['explained']} | "
            f"{j['pages']} / {j['kinds']} | {j['questions']} ({j['questions_cite_lines']}) | "
            f"{len(j['exceptions'])} | {len(j['repeated'])} |")  # type: ignore[arg-type]
        print(rows[-1], flush=True)
        for e in j["exceptions"]:  # type: ignore[attr-defined]
            print("  exception:", e, flush=True)
    text = ("# Offline deep reading (bundled model)\n\n`" + " ".join(
        ["python bench/offline_reading.py", *args.pdfs]) + "`\n\n" + "\n".join(rows) + "\n")
    Path(args.out).write_text(text)
    print(text)


def _pages(path: Path) -> int:
    import pypdfium2 as pdfium
    if path.suffix.lower() != ".pdf":
        return 0
    pdf = pdfium.PdfDocument(str(path))
    try:
        return len(pdf)
    finally:
        pdf.close()


if __name__ == "__main__":
    main()

