"""Review panel wall time vs its critical path on the mock server with a fixed latency per call.

critical path = editor + slowest reviewer + devil + meta (each the measured latency of that
call, from the gateway's usage records; the nominal value is 4 x latency). The goal is
wall / critical path <= 1.15: the reviewers overlap and the graph adds little.

    .venv/bin/python bench/review_critical_path.py [--latency 1.0] [--runs 3]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from tests.workflows.review.panel_mock import panel_responder  # noqa: E402

from papermind.config import EndpointSettings, LLMSettings  # noqa: E402
from papermind.domain import Paper  # noqa: E402
from papermind.grounding import GroundingEngine  # noqa: E402
from papermind.llm import build_gateway  # noqa: E402
from papermind.llm.testing import MockOpenAIServer  # noqa: E402
from papermind.services.checkpoints import memory_checkpointer  # noqa: E402
from papermind.services.runner import run_graph  # noqa: E402
from papermind.workflows.review import FULL_PANEL, ReviewContext, build_graph  # noqa: E402
from papermind.workflows.review.panel import REVIEWER_ROLES  # noqa: E402

PAPER = ROOT.parent / "shared" / "data" / "iclr_bench" / "papers" / "04pGUg0-pdZ.txt"
REVIEWERS = REVIEWER_ROLES


def load_paper() -> tuple[Paper, str]:
    if PAPER.is_file():
        from papermind.ingest import parse_file

        return parse_file(PAPER), PAPER.name
    from tests.workflows.review.paperkit import build_paper

    return build_paper(), "paperkit (shared data absent)"


async def one_run(base_url: str, paper: Paper, n: int) -> tuple[float, float]:
    endpoint = EndpointSettings(base_url=base_url, model="mock-model", api_key="k",
                                timeout_s=30, max_concurrency=8)
    gateway = build_gateway(LLMSettings(endpoints={"default": endpoint}, cache=False))
    context = ReviewContext(gateway=gateway, grounder=GroundingEngine(), input_chars=6000)
    started = time.perf_counter()
    result = await run_graph(build_graph(), {"paper": paper, "panel": list(FULL_PANEL)},
                             thread_id=f"bench-{n}", checkpointer=memory_checkpointer(),
                             context=context)
    wall = time.perf_counter() - started
    assert result.status == "completed"
    latency: dict[str, float] = {}
    for record in gateway.usage.records:
        latency[record.node or "-"] = latency.get(record.node or "-", 0.0) + record.latency_s
    critical = (latency["editor"] + max(latency[r] for r in REVIEWERS)
                + latency["devil"] + latency["meta"])
    return wall, critical


async def main(latency: float, runs: int) -> list[str]:
    paper, name = load_paper()
    rows = []
    with MockOpenAIServer(latency_s=latency, responder=panel_responder) as mock:
        await one_run(mock.base_url, paper, -1)  # warm-up: HTTP client and imports
        for n in range(runs):
            rows.append(await one_run(mock.base_url, paper, n))
    ratios = [w / c for w, c in rows]
    lines = [f"paper: {name}; latency per call {latency:.2f} s; {runs} runs after one warm-up",
             "", "| run | wall s | critical path s (measured) | wall / critical | wall / (4 x latency) |",
             "|---|---|---|---|---|"]
    lines += [f"| {n + 1} | {w:.3f} | {c:.3f} | {w / c:.3f} | {w / (4 * latency):.3f} |"
              for n, (w, c) in enumerate(rows)]
    lines += ["", f"median wall / critical path: {statistics.median(ratios):.3f} (goal <= 1.15)",
              f"max wall / critical path: {max(ratios):.3f}",
              f"machine load average (1, 5, 15 min) at the end: "
              f"{', '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores"]
    return lines


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=1.0)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    out = asyncio.run(main(args.latency, args.runs))
    text = "\n".join(out)
    print(text)
    command = f".venv/bin/python bench/review_critical_path.py --latency {args.latency} --runs {args.runs}"
    (ROOT / "bench" / "results" / "review_critical_path.md").write_text(
        f"# Review panel: wall time vs critical path\n\nCommand: `{command}`\n\n{text}\n",
        encoding="utf-8")
