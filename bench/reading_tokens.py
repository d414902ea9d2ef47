"""Tokens per deep reading, as a multiple of the paper's own token count.

    .venv/bin/python bench/reading_tokens.py

Runs the real deep-reading graph (real ingestion, condensation, grounding, gateway
accounting) on real papers from ../shared/data plus examples/example_paper.pdf, with a
scripted model that answers at realistic lengths: the reader writes 4 method points, 3
derivation steps, the experiment design and 3 results (about 25-word explanations, each with
a real sentence of the paper as its quote), the checker one verdict and reason per point,
the questioner 5 questions. Tokens are counted as the fake model counts them (characters/4,
the same estimate the condenser uses), prompts included in full. Two windows: a 32k-token
model (the paper fits) and the bundled local model (run with a 4k window, the paper is
condensed to ~1.3k tokens). Each with the
checker satisfied (no rewrite) and with one rewrite (credibility low the first time).
"""

from __future__ import annotations

import asyncio
import re
import statistics
import sys
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
from papermind.workflows.deep_reading.condense import (  # noqa: E402
    build_context,
    estimate_tokens,
    split_sentences,
)

DATA = ROOT.parent / "shared" / "data" / "pdfs"
WINDOWS = {"32k model": (32000 - 2048 - 1200, 4), "local model (4k window)": (4096 - 1024 - 1800, 2)}
PRICES = {"gpt-4o-mini ($0.15/$0.60 per M)": (0.15, 0.60),
          "gpt-4o ($2.50/$10 per M)": (2.50, 10.0)}
FILLER = ("which the paper motivates by the limitations of earlier approaches and which the "
          "authors then use as the basis for the next part of the argument")


def _sentences(messages: list[BaseMessage]) -> list[str]:
    text = "\n".join(str(m.content) for m in messages)
    body = re.search(r"<<<PAPER_BEGIN \w+>>>\n(.*?)\n<<<PAPER_END", text, re.DOTALL)
    lines = (body.group(1) if body else "").splitlines()
    return [s for line in lines if not line.startswith(("#", "TITLE", "["))
            for s in split_sentences(line.replace("[...]", " ")) if 8 <= len(s.split()) <= 40]


def reader(messages: list[BaseMessage]) -> dict[str, Any]:
    s = _sentences(messages) or ["no sentence found in the paper text at all here"]
    pick = lambda i: s[(i * 7) % len(s)]  # noqa: E731
    return {"method": [{"point": f"{pick(i)[:120]} {FILLER}", "quotes": [pick(i)]}
                       for i in range(4)],
            "derivation": [{"states": f"{pick(10 + i)[:100]}", "follows_from": FILLER[:80],
                            "symbols": ["x: input", "y: output"], "quotes": [pick(10 + i)]}
                           for i in range(3)],
            "experiments": {"datasets": ["dataset A", "dataset B"], "baselines": ["baseline"],
                            "metrics": ["accuracy"], "ablations": ["without part X"],
                            "quotes": [pick(20)]},
            "results": [{"finding": f"{pick(30 + i)[:120]}", "supports": FILLER[:90],
                         "quotes": [pick(30 + i)]} for i in range(3)]}


def checker(credibility: str) -> Any:
    def answer(messages: list[BaseMessage]) -> dict[str, Any]:
        text = "\n".join(str(m.content) for m in messages)
        ids = re.findall(r"\[([MDER]\d+)\] POINT", text)
        return {"judgements": [{"id": i, "verdict": "supported",
                                "reason": "The located evidence states this directly."}
                               for i in ids], "credibility": credibility,
                "feedback": "Tighten the derivation steps and quote the method section."}
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
                         context_budget=budget, max_points=points, max_rewrites=1)
    await run_graph(build_graph(), {"paper_id": paper.id}, thread_id="bench",
                    checkpointer=memory_checkpointer(), context=ctx)
    total = gateway.usage.total()
    return {"in": total.tokens_in, "out": total.tokens_out}


def papers() -> list[tuple[str, Paper]]:
    files = sorted(DATA.glob("generated_with_latex/*/*.pdf")) + \
        sorted(DATA.glob("ai_scientist_fewshot/*.pdf")) + [ROOT / "examples" / "example_paper.pdf"]
    return [(f.stem, parse_file(f)) for f in files if f.exists()]


def main() -> None:
    rows: list[str] = []
    summary: dict[tuple[str, bool], list[float]] = {}
    tokens_used: dict[tuple[str, bool], list[dict[str, int]]] = {}
    for name, paper in papers():
        full, _ = build_context(paper, 10**9)
        paper_tokens = estimate_tokens(full)
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
    text = "\n".join(lines) + "\n"
    print(text)
    out = ROOT / "bench" / "results" / "reading_tokens.md"
    out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
