"""CPU cost per chunk of the embedders compared on the search dev set (bench/search_devset.py).

    PYTHONPATH=src .venv/bin/python bench/search_embedder_cost.py LIBRARY.sqlite3 e5,minilm
        [--chunks 128] [--rounds 2]

Embeds the same ``--chunks`` chunk texts of a dev library (the first by row id) with each
embedder in turn, ``--rounds`` times, and reports CPU milliseconds per chunk
(``time.process_time``, this process and its threads: the machine is shared, so wall time
says little) and the best round. Model loading is not counted.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from papermind.config import load_settings  # noqa: E402
from papermind.services.search import build_embedder  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("library")
    parser.add_argument("embedders")
    parser.add_argument("--chunks", type=int, default=128)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    with sqlite3.connect(args.library) as conn:
        texts = [r[0] for r in conn.execute("SELECT text FROM search_chunks ORDER BY id LIMIT ?",
                                            (args.chunks,))]
    models = {name: build_embedder(load_settings(search={"embedder": name}).search)
              for name in args.embedders.split(",")}
    for model in models.values():
        model.embed_documents(texts[:2])  # type: ignore[union-attr]  # load before timing
    best: dict[str, float] = {}
    for _ in range(args.rounds):
        for name, model in models.items():
            started = time.process_time()
            model.embed_documents(texts)  # type: ignore[union-attr]
            cost = 1000 * (time.process_time() - started) / len(texts)
            best[name] = min(best.get(name, cost), cost)
    for name, cost in best.items():
        print(f"| {name} | {cost:.1f} CPU ms per chunk | {1000 / cost:.1f} chunks per CPU-s |")


if __name__ == "__main__":
    main()
