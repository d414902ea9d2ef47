"""Which bundled model writes the offline reading's "in plain words" glosses?

For each shared paper (Markdown, so parsing is quick), code selects the passages the extractive
reading would explain (``passages.select``); each bundled model installed explains them with
the reading's own prompt and gateway path (its managed llama.cpp server), and the reading's
own check (``checked_explanation``) keeps or withholds each gloss. The glosses shown are
written to a Markdown file for labelling BY READING (a gloss that states something the
passage does not say is wrong): edit the `label` column to ok / wrong, then re-run with
``--score FILE`` to count.

    .venv/bin/python bench/gloss_choice.py [--papers 8] [--per-paper 2] [--out FILE]
    .venv/bin/python bench/gloss_choice.py --score bench/results/gloss_choice.md
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from papermind.config import LLMSettings, LocalModelSettings  # noqa: E402
from papermind.ingest import parse_file  # noqa: E402
from papermind.llm import build_gateway  # noqa: E402
from papermind.llm.local import BUNDLED_MODELS, installed_model  # noqa: E402
from papermind.llm.local_server import (  # noqa: E402
    read_state,
    server_cpu_seconds,
    server_dir,
    stop_server,
)
from papermind.workflows.deep_reading import extractive  # noqa: E402
from papermind.workflows.deep_reading.passages import select  # noqa: E402

DATA = next((base / "shared" / "data" / "neurips_md" for base in ROOT.parents
             if (base / "shared" / "data").is_dir()), ROOT / "missing")
if os.environ.get("PAPERMIND_SHARED_DATA"):
    DATA = Path(os.environ["PAPERMIND_SHARED_DATA"]) / "neurips_md"
OUT = ROOT / "bench" / "results" / "gloss_choice.md"


def passages(papers: int, per_paper: int) -> list[tuple[str, object]]:
    """(paper file name, point) for the first ``per_paper`` passages of each paper."""
    out: list[tuple[str, object]] = []
    for path in sorted(DATA.glob("*.md"))[:papers]:
        paper = parse_file(path)
        found = select(paper, per_part=2, questions=0).passages
        by_kind = [p for kind in ("result", "method", "experiment", "derivation")
                   for p in found if p.kind == kind][:: 2]  # one of each kind first
        chosen = (by_kind + [p for p in found if p not in by_kind])[:per_paper]
        out += [(path.name, point) for point in extractive.points_from_passages(chosen)]
    return out


async def gloss_all(model: str, points: list[tuple[str, object]],
                    home: Path) -> tuple[list[tuple[str, object, str, str]], float, float]:
    settings = LLMSettings(cache=False, local=LocalModelSettings(model=model, parallel=1,
                                                                 scope="home"))
    gateway = build_gateway(settings, home=home)
    rows = []
    wall = time.perf_counter()
    for name, point in points:
        raw, _ = await extractive.explain(gateway, point, node="gloss_bench")  # type: ignore[arg-type]
        checked = extractive.checked_explanation(
            point.model_copy(update={"explanation": raw}))  # type: ignore[attr-defined]
        rows.append((name, point, raw, checked.explanation))
    state = read_state(server_dir(home))
    cpu = (server_cpu_seconds(state.pid) or 0.0) if state else 0.0
    return rows, time.perf_counter() - wall, cpu


def write(out: Path, results: dict[str, tuple[list, float, float]], argv: str) -> None:
    lines = ["# Gloss choice: the bundled models' plain-words glosses, labelled by reading", "",
             f"Command: `.venv/bin/python bench/gloss_choice.py {argv}`", "",
             "| model | passages | shown (passed the reading's check) | withheld | wall s | "
             "server CPU s |", "|---|---|---|---|---|---|"]
    for model, (rows, wall, cpu) in results.items():
        shown = sum(1 for r in rows if r[3])
        lines.append(f"| {model} | {len(rows)} | {shown} | {len(rows) - shown} | {wall:.0f} | "
                     f"{cpu:.0f} |")
    for model, (rows, _, _) in results.items():
        lines += ["", f"## {model}", "", "| paper | passage | gloss shown | label |",
                  "|---|---|---|---|"]
        for name, point, raw, shown in rows:
            text = " ".join(point.text.split()).replace("|", "/")  # type: ignore[attr-defined]
            lines.append(f"| {name[:24]} | {text[:300]} | "
                         f"{(shown or '(withheld: ' + raw[:80] + ')').replace('|', '/')} | "
                         f"{'?' if shown else '-'} |")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


def score(path: Path) -> None:
    model = ""
    counts: dict[str, dict[str, int]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            model = line[3:].strip()
        elif model and line.startswith("| ") and not line.startswith(("| paper", "|---")):
            label = line.rsplit("|", 2)[-2].strip()
            counts.setdefault(model, {}).setdefault(label, 0)
            counts[model][label] += 1
    for model, labels in counts.items():
        shown = labels.get("ok", 0) + labels.get("wrong", 0)
        rate = labels.get("wrong", 0) / shown if shown else 0.0
        print(f"{model}: shown {shown}, wrong {labels.get('wrong', 0)} ({rate:.0%}), "
              f"withheld {labels.get('-', 0)}, unlabelled {labels.get('?', 0)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--papers", type=int, default=8)
    parser.add_argument("--per-paper", type=int, default=2)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--score", type=Path)
    args = parser.parse_args()
    if args.score:
        score(args.score)
        return
    if not DATA.is_dir():
        sys.exit(f"shared data not found at {DATA}")
    points = passages(args.papers, args.per_paper)
    results = {}
    for model in [m.name for m in BUNDLED_MODELS[:2] if installed_model(m.name)]:
        with tempfile.TemporaryDirectory() as home:
            try:
                results[model] = asyncio.run(gloss_all(model, points, Path(home)))
            finally:
                stop_server(Path(home))
        rows, wall, cpu = results[model]
        print(f"{model}: {sum(1 for r in rows if r[3])}/{len(rows)} shown, {wall:.0f} s wall, "
              f"{cpu:.0f} s server CPU", flush=True)
        write(args.out, results, " ".join(sys.argv[1:]))


if __name__ == "__main__":
    main()
