"""The evaluation run loop shared by ``eval review``, ``eval qa`` and ``eval reading``.

An Evaluation lists its items, runs one item (a workflow job whose id is derived from the
run and the item, so a killed item resumes from its checkpoint) and summarises the stored
results. ``run_evaluation`` stores the run's settings first, every finished item at once,
stops early past ``budget_tokens`` (the run stays resumable), and finishes with the summary.
"""

from __future__ import annotations

import hashlib
import subprocess
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from papermind import __version__
from papermind.errors import InputError
from papermind.evaluation.runs.store import EvalItem, EvalRun, EvalRunStore
from papermind.llm import Gateway

PACKAGE = Path(__file__).resolve().parents[2]  # src/papermind
REPO = Path(__file__).resolve().parents[4]


@dataclass(frozen=True)
class Item:
    """One thing to evaluate: an id unique within the evaluation and what it needs."""

    id: str
    data: dict[str, Any]


@dataclass(frozen=True)
class Outcome:
    """What one item gave: its result (``scores`` holds its per-item metrics) and usage."""

    result: dict[str, Any]
    tokens: int = 0
    cost_usd: float = 0.0


class Evaluation(Protocol):
    kind: str
    roles: tuple[str, ...]

    def items(self) -> list[Item]: ...
    def options(self) -> dict[str, Any]: ...
    def estimate_tokens(self, item: Item) -> int: ...
    async def run_item(self, item: Item, job_id: str) -> Outcome: ...
    def summarize(self, results: list[dict[str, Any]]) -> dict[str, Any]: ...


@dataclass
class RunResult:
    run: EvalRun
    items: list[EvalItem] = field(default_factory=list)
    ran: int = 0
    stopped: str = ""


@dataclass(frozen=True)
class Estimate:
    items: int
    tokens: int
    cost_usd: float | None

    def text(self) -> str:
        cost = f"~${self.cost_usd:.2f}" if self.cost_usd is not None else "cost unknown (no " \
            "price set for the model: llm.prices)"
        return f"{self.items} items, ~{self.tokens:,} tokens, {cost}"


def run_settings(gateway: Gateway, evaluation: Evaluation) -> dict[str, Any]:
    """What the run ran against: endpoints (no keys), model per role, prompt hashes, code."""
    roles = {r: gateway.model_for(r) for r in evaluation.roles}
    endpoints = {r: {"provider": gateway.resolve(r).endpoint.provider,
                     "base_url": gateway.resolve(r).endpoint.base_url or "",
                     "temperature": gateway.resolve(r).temperature} for r in evaluation.roles}
    return {"kind": evaluation.kind, "models": roles, "endpoints": endpoints,
            "prompts": prompt_hashes(), "code": code_version(),
            "demo_quality": gateway.is_demo_quality, **evaluation.options()}


def prompt_hashes() -> dict[str, str]:
    """SHA-256 (first 12 hex digits) of every prompt file of the package."""
    return {str(p.relative_to(PACKAGE)): hashlib.sha256(p.read_bytes()).hexdigest()[:12]
            for p in sorted(PACKAGE.rglob("prompts/*.md"))}


def code_version() -> str:
    """The package version and, in a git checkout, the commit (with '+dirty' if edited)."""
    try:
        commit = subprocess.run(["git", "-C", str(REPO), "describe", "--always", "--dirty=+dirty"],
                                capture_output=True, text=True, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return __version__
    described = commit.stdout.strip()
    return f"{__version__} ({described})" if commit.returncode == 0 and described else __version__


def estimate(evaluation: Evaluation, items: Sequence[Item], gateway: Gateway) -> Estimate:
    """Tokens the items will take (the evaluation's own estimate) and their price, if known."""
    tokens = sum(evaluation.estimate_tokens(i) for i in items)
    prices = gateway.settings.prices
    models = {gateway.model_for(r) for r in evaluation.roles}
    known = [prices[m] for m in models if m in prices]
    if not known or len(known) < len(models):
        return Estimate(len(items), tokens, 0.0 if _free_models(gateway, evaluation) else None)
    price_in = max(p[0] for p in known)
    price_out = max(p[1] for p in known)
    return Estimate(len(items), tokens, tokens * (0.8 * price_in + 0.2 * price_out) / 1e6)


def _free_models(gateway: Gateway, evaluation: Evaluation) -> bool:
    return all(gateway.resolve(r).kind.free for r in evaluation.roles)


async def run_evaluation(store: EvalRunStore, evaluation: Evaluation, gateway: Gateway, *,
                         run_id: str | None = None, resume: bool = False,
                         limit: int | None = None, budget_tokens: int | None = None,
                         on_item: Callable[[EvalItem], None] | None = None) -> RunResult:
    """Run (or with ``resume``, continue) an evaluation; returns the stored run and items."""
    items = evaluation.items()[:limit] if limit else evaluation.items()
    if resume:
        if run_id is None:
            raise InputError("resume needs a run id")
        run = store.get(run_id)
        if run.kind != evaluation.kind:
            raise InputError(f"run {run.id} is a {run.kind} run, not {evaluation.kind}")
        items = items[:run.settings.get("items", len(items))]
    else:
        settings = {**run_settings(gateway, evaluation), "items": len(items),
                    "limit": limit, "budget_tokens": budget_tokens}
        run = store.create(run_id or _new_id(evaluation.kind), evaluation.kind, settings)
    done = {i.item_id for i in store.items(run.id)}
    result = RunResult(run)
    spent = sum(i.tokens for i in store.items(run.id))
    for item in items:
        if item.id in done:
            continue
        if budget_tokens is not None and spent >= budget_tokens:
            result.stopped = f"token budget {budget_tokens:,} reached after {spent:,} tokens"
            break
        started = time.perf_counter()
        outcome = await evaluation.run_item(item, f"eval-{run.id}-{_safe(item.id)}")
        stored = EvalItem(item.id, outcome.result, outcome.tokens, outcome.cost_usd,
                          round(time.perf_counter() - started, 2))
        store.add_item(run.id, stored)
        spent += outcome.tokens
        result.ran += 1
        if on_item is not None:
            on_item(stored)
    result.items = store.items(run.id)
    summary = evaluation.summarize([i.result for i in result.items])
    summary["usage"] = {"tokens": sum(i.tokens for i in result.items),
                        "cost_usd": round(sum(i.cost_usd for i in result.items), 6),
                        "seconds": round(sum(i.seconds for i in result.items), 1)}
    store.finish(run.id, summary, status="stopped" if result.stopped else "finished")
    result.run = store.get(run.id)
    return result


def _new_id(kind: str) -> str:
    return f"{kind}-{time.strftime('%Y%m%d-%H%M%S')}-{uuid.uuid4().hex[:4]}"


def _safe(item_id: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in item_id)[:80]
