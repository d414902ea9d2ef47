"""Tokens per deep reading, as a multiple of the paper's own token count.

    .venv/bin/python bench/reading_tokens.py

Runs the real deep-reading graph (real ingestion, condensation, grounding, gateway
accounting) on real papers from ../shared/data plus examples/example_paper.pdf, with a
scripted model that answers at realistic lengths: the reader sees the paper as numbered
lines and writes 4 method points, 3 derivation steps, the experiment design and 3 results
(about 25-word explanations, each citing the line id of a real line of the paper with a
five-word quote from it), the support judge one verdict and reason per claim, the
questioner 5 questions. Tokens are counted as the fake model counts them (characters/4,
the same estimate the condenser uses), prompts included in full. Two windows: a 32k-token
model (the paper fits) and the bundled local model (run with a 4k window, the paper is
condensed to ~1.3k tokens). Each with the
checker satisfied (no rewrite) and with one rewrite (credibility low the first time).
"""

from __future__ import annotations

import asyncio
import re
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from langchain_core.messages import BaseMessage  # noqa: E402

from papermind.domain import Paper  # noqa: E402
from papermind.grounding import GroundingEngine  # noqa: E402
from papermind.ingest import parse_file  # noqa: E402
from papermind.llm.testing import fake_gateway  # noqa: E402
from papermind.services.checkpoints import memory_checkpointer  # noqa: E402
from papermind.services.runner import run_graph  # noqa: E402
from papermind.workflows.deep_reading import ReadingContext, build_graph  # noqa: E402
from papermind.workflows.deep_reading.condense import estimate_tokens  # noqa: E402
from papermind.workflows.deep_reading.parts import paper_parts, render  # noqa: E402


def _shared_data() -> Path:
    """../shared/data of the repository (or of a worktree's parent folders)."""
    for folder in ROOT.parents:
        if (folder / "shared" / "data").is_dir():
            return folder / "shared" / "data"
    return ROOT.parent / "shared" / "data"


DATA = _shared_data() / "pdfs"
WINDOWS = {"32k model": (32000 - 2048 - 1200, 4), "local model (4k window)": (4096 - 1024 - 1800, 2)}
PRICES = {"gpt-4o-mini ($0.15/$0.60 per M)": (0.15, 0.60),
          "gpt-4o ($2.50/$10 per M)": (2.50, 10.0)}
BEFORE_IN = {("32k model", False): 9117, ("32k model", True): 18645,
             ("local model (4k window)", False): 2872, ("local model (4k window)", True): 6066}
"""Median input tokens per reading before line ids (this bench at commit 95f7593: quotes
copied by the reader, one checker call with credibility and feedback; same papers)."""
FILLER = ("which the paper motivates by the limitations of earlier approaches and which the "
          "authors then use as the basis for the next part of the argument")


_LINE = re.compile(r"^(\d+) (.*)$")


def _lines(messages: list[BaseMessage]) -> list[tuple[str, str]]:
    """(line id, text) of the prompt's numbered prose lines (6-40 words)."""
    text = "\n".join(str(m.content) for m in messages)
    body = re.search(r"<<<PAPER_BEGIN \w+>>>\n(.*?)\n<<<PAPER_END", text, re.DOTALL)
    page, out = 0, []
    for raw in (body.group(1) if body else "").splitlines():
        if raw.startswith("[p.") and raw.endswith("]"):
            page = int(raw[3:-1])
        elif (m := _LINE.match(raw)) and 6 <= len(m.group(2).split()) <= 40:
            out.append((f"{page}:{m.group(1)}", m.group(2)))
    return out


def reader(messages: list[BaseMessage]) -> dict[str, Any]:
    s = _lines(messages) or [("1:1", "no line found in the paper text at all here")]
    pick = lambda i: s[(i * 7) % len(s)]  # noqa: E731

    def cite(i: int) -> dict[str, Any]:
        ident, text = pick(i)
        return {"lines": [ident], "quote": " ".join(text.split()[:5])}
    return {"method": [{"point": f"{pick(i)[1][:120]} {FILLER}", **cite(i)} for i in range(4)],
            "derivation": [{"states": f"{pick(10 + i)[1][:100]}", "follows_from": FILLER[:80],
                            "symbols": ["x: input", "y: output"], **cite(10 + i)}
                           for i in range(3)],
            "experiments": {"datasets": ["dataset A", "dataset B"], "baselines": ["baseline"],
                            "metrics": ["accuracy"], "ablations": ["without part X"],
                            **cite(20)},
            "results": [{"finding": f"{pick(30 + i)[1][:120]}", "supports": FILLER[:90],
                         **cite(30 + i)} for i in range(3)]}


def checker(credibility: str) -> Any:
    verdict = "not_enough" if credibility == "low" else "supported"

    def answer(messages: list[BaseMessage]) -> dict[str, Any]:
        text = "\n".join(str(m.content) for m in messages)
        ids = re.findall(r"\[C(\d+)\] CLAIM", text)
        return {"verdicts": [{"id": f"C{i}", "verdict": verdict,
                              "reason": "The cited lines state this directly."} for i in ids]}
    return answer


def questioner(messages: list[BaseMessage]) -> dict[str, Any]:
    ids = re.findall(r"^([MDER]\d+) \(", "\n".join(str(m.content) for m in messages), re.M)
    return {"questions": [{"question": f"If the assumption behind {i} failed, which later step "
                                       "of the argument would break first, and why?",
                           "builds_on": [i], "why": "tests understanding of the dependency"}
                          for i in (ids * 5)[:5]]}


async def one_run(paper: Paper, budget: int, points: int, rewrite: bool) -> dict[str, int]:
    script = {"reader": [reader, reader], "questioner": [questioner],
              "checker": [checker("low"), checker("high")] if rewrite else [checker("high")]}
    gateway = fake_gateway(script)
    papers = type("Papers", (), {"get": lambda self, _id: paper})()
    ctx = ReadingContext(gateway=gateway, grounder=GroundingEngine(), papers=papers,
                         context_budget=budget, max_points=points,
                         max_rewrites=1 if rewrite else 0)
    await run_graph(build_graph(), {"paper_id": paper.id}, thread_id="bench",
                    checkpointer=memory_checkpointer(), context=ctx)
    total = gateway.usage.total()
    return {"in": total.tokens_in, "out": total.tokens_out}


def papers() -> list[tuple[str, Paper]]:
    files = sorted(DATA.glob("generated_with_latex/*/*.pdf")) + \
        sorted(DATA.glob("ai_scientist_fewshot/*.pdf")) + [ROOT / "examples" / "example_paper.pdf"]
    return [(f.stem, parse_file(f)) for f in files if f.exists()]


def main() -> None:
    wall, cpu = time.perf_counter(), time.process_time()
    rows: list[str] = []
    summary: dict[tuple[str, bool], list[float]] = {}
    tokens_used: dict[tuple[str, bool], list[dict[str, int]]] = {}
    for name, paper in papers():
        paper_tokens = estimate_tokens(render(paper.title, paper_parts(paper)))
        for window, (budget, points) in WINDOWS.items():
            for rewrite in (False, True):
                used = asyncio.run(one_run(paper, budget, points, rewrite))
                ratio = (used["in"] + used["out"]) / paper_tokens
                summary.setdefault((window, rewrite), []).append(ratio)
                tokens_used.setdefault((window, rewrite), []).append(used)
                rows.append(f"| {name} | {paper_tokens} | {window} | {'yes' if rewrite else 'no'} "
                            f"| {used['in']} | {used['out']} | {ratio:.2f} |")
    lines = ["# Tokens per deep reading", "", "Command: `.venv/bin/python bench/reading_tokens.py`",
             "", __doc__.strip().split("\n\n", 1)[1], "",
             "| paper | paper tokens | window | rewrite | tokens in | tokens out | x paper |",
             "|---|---|---|---|---|---|---|", *rows, "", "## Median multiple of the paper", "",
             "| window | rewrite | median x paper | min | max | median in | median out |",
             "|---|---|---|---|---|---|---|"]
    for (window, rewrite), ratios in summary.items():
        used = tokens_used[(window, rewrite)]
        lines.append(f"| {window} | {'yes' if rewrite else 'no'} | "
                     f"{statistics.median(ratios):.2f} | {min(ratios):.2f} | {max(ratios):.2f} | "
                     f"{statistics.median(u['in'] for u in used):.0f} | "
                     f"{statistics.median(u['out'] for u in used):.0f} |")
    lines += ["", "## Input tokens before / after line ids (median per reading)", "",
              "| window | rewrite | before (95f7593) | after | change |", "|---|---|---|---|---|"]
    for (window, rewrite), used in tokens_used.items():
        after = statistics.median(u["in"] for u in used)
        before = BEFORE_IN[(window, rewrite)]
        lines.append(f"| {window} | {'yes' if rewrite else 'no'} | {before} | {after:.0f} | "
                     f"{(after - before) / before:+.1%} |")
    lines += ["", "## What a real run would cost (32k model, median paper)", ""]
    for (window, rewrite), used in tokens_used.items():
        if window != "32k model":
            continue
        t_in = statistics.median(u["in"] for u in used)
        t_out = statistics.median(u["out"] for u in used)
        for label, (p_in, p_out) in PRICES.items():
            cost = (t_in * p_in + t_out * p_out) / 1e6
            lines.append(f"- {label}, {'with' if rewrite else 'without'} rewrite: ${cost:.4f}")
    lines += ["", "Not counted: the JSON schema each structured call sends as a tool definition "
              "(about 600 tokens for the reader, 200 for checker and questioner), i.e. about "
              "+1,000 input tokens per reading without a rewrite, +1,800 with one."]
    usage = resource.getrusage(resource.RUSAGE_SELF)
    lines += ["", f"Run: {time.perf_counter() - wall:.1f} s wall, {time.process_time() - cpu:.1f} s "
              f"CPU, max RSS {usage.ru_maxrss / 1024:.0f} MiB (2-core machine shared with other "
              "work)."]
    text = "\n".join(lines) + "\n"
    print(text)
    out = ROOT / "bench" / "results" / "reading_tokens.md"
    out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
