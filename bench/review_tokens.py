"""Input tokens per review: vs the paper's tokens (goal <= 3x) and before/after line ids
(goal: overhead <= 15%), on iclr_bench.

Every iclr_bench paper (extracted text, parsed as .txt) goes through the full panel on the
mock OpenAI server (panel_mock plays every role from its prompt, the checker included).
Input tokens are the mock's usage counts (prompt characters / 4); the paper's tokens use the
same estimator over all of its text lines, so ratios compare like with like.

Three views of the line-id overhead:

- ``before -> after``: input tokens of the panel (support judge excluded: it is new work,
  not an id cost) against bench/results/review_tokens_before_line_ids*.md, the same bench
  run on commit 95f7593 (quotes, no line ids);
- ``same content``: the id characters of the numbered reviewer and devil prompts of this
  run (page markers, line-number prefixes, gap marks) as a share of those prompts without
  them: what the ids cost for exactly the same paper text;
- ``with judge``: the whole run, support judge included.

    .venv/bin/python bench/review_tokens.py [--limit N] [--window 32000] [--papers DIR]

``--papers DIR`` (relative to ../shared/data, e.g. ``pdfs``) runs every *.pdf / *.txt below
it instead; results and the baseline then carry the folder's name as a suffix.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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
from papermind.llm.testing.mock_server import requested_schema  # noqa: E402
from papermind.services.checkpoints import memory_checkpointer  # noqa: E402
from papermind.services.review import review_context  # noqa: E402
from papermind.services.runner import run_graph  # noqa: E402
from papermind.workflows.review import FULL_PANEL, build_graph  # noqa: E402


def _shared_data() -> Path:
    """../shared/data of the repository (or of a worktree's parent folders)."""
    for folder in ROOT.parents:
        if (folder / "shared" / "data").is_dir():
            return folder / "shared" / "data"
    return ROOT.parent / "shared" / "data"


PAPERS = _shared_data() / "iclr_bench" / "papers"
_ID_PARTS = re.compile(r"^(\s*)(?:\[p\.\d+\]|\.\.\.)\n|^(\s*)\d+ ", re.M)
_CITING = {"ReviewerDraft", "DevilDraft"}


@dataclass
class IdCounter:
    """Characters of the numbered prompts, with and without their line-id parts."""

    chars: int = 0
    without_ids: int = 0
    requests: list[int] = field(default_factory=list)

    def responder(self, request: dict[str, Any]) -> dict[str, Any] | str:
        if (requested_schema(request) or {}).get("title") in _CITING:
            text = "".join(str(m.get("content") or "") for m in request.get("messages", []))
            self.chars += len(text)
            self.without_ids += len(_ID_PARTS.sub(lambda m: m.group(1) or m.group(2) or "",
                                                  text))
        return panel_responder(request)


def paper_tokens(paper: Paper) -> int:
    return sum(len(line.text) + 1 for line in paper.lines()) // 4


async def review_tokens(base_url: str, paper: Paper, window: int, grounder: GroundingEngine
                        ) -> tuple[int, int, int]:
    """(panel input tokens without the support judge, with it, reviewer input chars)."""
    endpoint = EndpointSettings(base_url=base_url, model="mock-model", api_key="k",
                                context_tokens=window, timeout_s=30)
    settings = Settings(llm=LLMSettings(endpoints={"default": endpoint}, cache=False))
    gateway = build_gateway(settings.llm)
    context = review_context(settings, gateway, grounder)
    result = await run_graph(build_graph(), {"paper": paper, "panel": list(FULL_PANEL)},
                             thread_id=paper.id, checkpointer=memory_checkpointer(),
                             context=context)
    assert result.status == "completed"
    total = gateway.usage.total().tokens_in
    judge = sum(u.tokens_in for node, u in gateway.usage.by_node().items()
                if node == "support_judge")
    return total - judge, total, context.input_chars


def suffix(window: int, papers: str | None) -> str:
    """Results file suffix: '' for the default run, else '_w<window>' and/or '_<folder>'."""
    tail = "" if window == 32000 else f"_w{window}"
    return tail + (f"_{Path(papers).name}" if papers else "")


def baseline(name: str) -> dict[str, int]:
    """Per-paper input tokens of the run before line ids (commit 95f7593), if recorded."""
    path = ROOT / "bench" / "results" / f"review_tokens_before_line_ids{name}.md"
    if not path.exists():
        return {}
    rows = re.findall(r"^\| (\S+\.(?:txt|pdf)) \| \d+ \| (\d+) \|", path.read_text(), re.M)
    return {name: int(tokens) for name, tokens in rows}


def paper_files(papers: str | None, limit: int | None) -> list[Path]:
    if papers is None:
        return sorted(PAPERS.glob("*.txt"))[:limit]
    folder = _shared_data() / papers
    return sorted(p for p in folder.rglob("*") if p.suffix in {".pdf", ".txt"}
                  and not p.name.endswith("-labels.txt") and p.name != "LICENSE.txt")[:limit]


async def main(limit: int | None, window: int, papers: str | None = None) -> list[str]:
    files = paper_files(papers, limit)
    if not files:
        return [f"no papers at {papers or PAPERS}: shared data absent"]
    before = baseline(suffix(window, papers))
    rows: list[tuple[str, int, int, int, int | None]] = []
    counter, budget = IdCounter(), 0
    wall, cpu = time.perf_counter(), time.process_time()
    with MockOpenAIServer(responder=counter.responder) as mock:
        for path in files:
            try:
                paper = parse_file(path)
            except Exception as err:  # a bench skips what ingestion refuses
                print(f"skipped {path.name}: {err}", file=sys.stderr)
                continue
            if paper_tokens(paper) == 0:
                print(f"skipped {path.name}: no text", file=sys.stderr)
                continue
            panel, whole, budget = await review_tokens(mock.base_url, paper, window,
                                                       GroundingEngine())
            rows.append((path.name, paper_tokens(paper), panel, whole, before.get(path.name)))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return _table(rows, counter, budget, window, wall, cpu, papers or "iclr_bench")


def _table(rows: list[tuple[str, int, int, int, int | None]], counter: IdCounter, budget: int,
           window: int, wall: float, cpu: float, source: str) -> list[str]:
    ratios = [r[2] / r[1] for r in rows]
    paired = [(r[2], r[4]) for r in rows if r[4]]
    change = [after / was - 1 for after, was in paired]
    same = counter.chars / counter.without_ids - 1 if counter.without_ids else 0.0
    judge = [r[3] / r[2] - 1 for r in rows]
    lines = [f"{len(rows)} papers of {source}; model window {window} tokens -> "
             f"{budget} paper characters (line ids included) per reviewer", "",
             f"input tokens / paper tokens (panel, judge excluded): mean "
             f"{statistics.mean(ratios):.3f}, median {statistics.median(ratios):.3f}, max "
             f"{max(ratios):.3f}, min {min(ratios):.3f} (goal <= 3)"]
    if change:
        lines.append(f"line ids, before -> after (panel input tokens per review, {len(paired)} "
                     f"papers vs commit 95f7593): median {statistics.median(change):+.1%}, "
                     f"mean {statistics.mean(change):+.1%}, max {max(change):+.1%} "
                     f"(goal <= +15%); median tokens {statistics.median(p[1] for p in paired):.0f}"
                     f" -> {statistics.median(p[0] for p in paired):.0f}")
    lines += [f"line ids, same content (id characters / reviewer and devil prompt characters "
              f"without them): {same:+.1%} (goal <= +15%)",
              f"support judge (new checker calls) adds: median {statistics.median(judge):+.1%} "
              f"of the panel's input tokens",
              f"time: {wall:.1f} s wall, {cpu:.1f} s CPU (this process; the mock server runs in "
              f"a thread of it; machine shared with other work)", "",
              "| paper | paper tokens | panel input tokens | with support judge | before line ids |",
              "|---|---|---|---|---|"]
    lines += [f"| {name} | {own} | {panel} | {whole} | {was if was else '-'} |"
              for name, own, panel, whole, was in rows]
    return lines


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--window", type=int, default=32000,
                        help="context window of the reviewers' model (sets their input budget)")
    parser.add_argument("--papers", default=None,
                        help="folder under ../shared/data with *.pdf / *.txt (default iclr_bench)")
    args = parser.parse_args()
    out = asyncio.run(main(args.limit, args.window, args.papers))
    text = "\n".join(out)
    print("\n".join(out[:8]))
    limit = f" --limit {args.limit}" if args.limit else ""
    source = f" --papers {args.papers}" if args.papers else ""
    command = f".venv/bin/python bench/review_tokens.py{limit} --window {args.window}{source}"
    name = suffix(args.window, args.papers)
    (ROOT / "bench" / "results" / f"review_tokens{name}.md").write_text(
        f"# Review panel: input tokens per review vs paper tokens, before/after line ids\n\n"
        f"Command: `{command}`\n\n{text}\n", encoding="utf-8")
