"""Input tokens per review as a multiple of the paper's tokens (goal <= 3x), on iclr_bench.

Every iclr_bench paper (extracted text, parsed as .txt) goes through the full panel on the
mock OpenAI server (panel_mock plays every role from its prompt). Input tokens are the mock's
usage counts (prompt characters / 4); the paper's tokens use the same estimator over all of
its text lines, so the ratio compares like with like.

    .venv/bin/python bench/review_tokens.py [--limit N] [--window 32000]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from tests.workflows.review.panel_mock import panel_responder  # noqa: E402

from papermind.config import EndpointSettings, LLMSettings, Settings  # noqa: E402
from papermind.domain import Paper  # noqa: E402
from papermind.grounding import GroundingEngine  # noqa: E402
from papermind.ingest import parse_file  # noqa: E402
from papermind.llm import build_gateway  # noqa: E402
from papermind.llm.testing import MockOpenAIServer  # noqa: E402
from papermind.services.checkpoints import memory_checkpointer  # noqa: E402
from papermind.services.review import review_context  # noqa: E402
from papermind.services.runner import run_graph  # noqa: E402
from papermind.workflows.review import FULL_PANEL, build_graph  # noqa: E402

PAPERS = ROOT.parent / "shared" / "data" / "iclr_bench" / "papers"


def paper_tokens(paper: Paper) -> int:
    return sum(len(line.text) + 1 for line in paper.lines()) // 4


async def review_tokens(base_url: str, paper: Paper, window: int, grounder: GroundingEngine
                        ) -> tuple[int, int]:
    endpoint = EndpointSettings(base_url=base_url, model="mock-model", api_key="k",
                                context_tokens=window, timeout_s=30)
    settings = Settings(llm=LLMSettings(endpoints={"default": endpoint}, cache=False))
    gateway = build_gateway(settings.llm)
    context = review_context(settings, gateway, grounder)
    result = await run_graph(build_graph(), {"paper": paper, "panel": list(FULL_PANEL)},
                             thread_id=paper.id, checkpointer=memory_checkpointer(),
                             context=context)
    assert result.status == "completed"
    total = gateway.usage.total()
    return total.tokens_in, context.input_chars


async def main(limit: int | None, window: int) -> list[str]:
    files = sorted(PAPERS.glob("*.txt"))[:limit]
    if not files:
        return [f"no papers at {PAPERS}: shared data absent"]
    rows: list[tuple[str, int, int, float]] = []
    budget = 0
    with MockOpenAIServer(responder=panel_responder) as mock:
        for path in files:
            paper = parse_file(path)
            used, budget = await review_tokens(mock.base_url, paper, window, GroundingEngine())
            own = paper_tokens(paper)
            rows.append((path.name, own, used, used / own))
    ratios = [r[3] for r in rows]
    lines = [f"{len(rows)} iclr_bench papers; model window {window} tokens -> "
             f"{budget} paper characters per reviewer", "",
             f"input tokens / paper tokens: mean {statistics.mean(ratios):.3f}, "
             f"median {statistics.median(ratios):.3f}, max {max(ratios):.3f}, "
             f"min {min(ratios):.3f} (goal <= 3)",
             f"paper tokens: median {statistics.median(r[1] for r in rows):.0f}; "
             f"review input tokens: median {statistics.median(r[2] for r in rows):.0f}", "",
             "| paper | paper tokens | review input tokens | ratio |", "|---|---|---|---|"]
    lines += [f"| {name} | {own} | {used} | {ratio:.3f} |" for name, own, used, ratio in rows]
    return lines


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--window", type=int, default=32000,
                        help="context window of the reviewers' model (sets their input budget)")
    args = parser.parse_args()
    out = asyncio.run(main(args.limit, args.window))
    text = "\n".join(out)
    print("\n".join(out[:5]))
    limit = f" --limit {args.limit}" if args.limit else ""
    command = f".venv/bin/python bench/review_tokens.py{limit} --window {args.window}"
    suffix = "" if args.window == 32000 else f"_w{args.window}"
    (ROOT / "bench" / "results" / f"review_tokens{suffix}.md").write_text(
        f"# Review panel: input tokens per review vs paper tokens\n\nCommand: `{command}`\n\n"
        f"{text}\n", encoding="utf-8")
