"""``eval review``: the panel against human outcomes (ICLR bench), and planted flaws.

The bench folder holds ``ratings_dev.tsv`` (paper id, reviewers' overall ratings, decision)
and ``papers/<id>.txt``. Per paper the panel's recommendation (accept or minor revision =
accept) and score (mean of the reviewers' final scores, 1-10); overall decision accuracy,
balanced accuracy, AUC of the score for accept, Pearson and Spearman with the mean human
rating, the same per reviewer role, each with a bootstrap interval. With ``flaws`` set, five
flaws are planted in every paper first and the summary adds recall per flaw kind, by code
alone and by the panel.
"""

from __future__ import annotations

import csv
import random
import zlib
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from papermind.errors import InputError
from papermind.evaluation import metrics as m
from papermind.evaluation.perturb.flaws import KINDS, plant_flaws
from papermind.evaluation.published import FLAWS, REVIEW
from papermind.evaluation.runs.flaw_catches import code_catches, panel_catches
from papermind.evaluation.runs.loop import Item, Outcome
from papermind.ingest import parse_bytes
from papermind.llm import Gateway
from papermind.services.container import Container
from papermind.services.review import Reviewers, review_paper
from papermind.workflows.review import FULL_PANEL
from papermind.workflows.review.panel import minimal_panel

if TYPE_CHECKING:
    from papermind.evaluation.runs.jobs import EvalRequest

ROLES = (*FULL_PANEL, "checker")
"""Every panel role of the table, and the checker that judges support."""
ACCEPTING = ("accept", "minor_revision")
FLAWS_PER_PAPER = 5
CALLS = {"minimal": len(minimal_panel(has_experiments=True)) + 1, "full": len(FULL_PANEL) + 1}
"""Model calls per paper: one per panel role, and one by the support judge (the estimate)."""


def load_bench(folder: Path) -> list[Item]:
    """Papers with their human ratings and decision, in paper-id order."""
    table = folder / "ratings_dev.tsv"
    if not table.is_file():
        raise InputError(f"{folder}: no ratings_dev.tsv (expected the ICLR bench layout)")
    items = []
    with table.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            ratings = [float(v) for k, v in row.items() if k not in ("paper_id", "decision") and v]
            path = folder / "papers" / f"{row['paper_id']}.txt"
            if path.is_file() and ratings:
                items.append(Item(row["paper_id"], {
                    "path": str(path), "ratings": ratings, "decision": row["decision"],
                    "accepted": row["decision"].lower().startswith("accept")}))
    if not items:
        raise InputError(f"{folder}: no paper with ratings and text")
    return sorted(items, key=lambda i: i.id)


class ReviewEvaluation:
    """The review panel over a bench of papers with human outcomes."""

    kind = "review"
    roles: tuple[str, ...] = ROLES

    def __init__(self, container: Container, gateway: Gateway, bench: Path, *,
                 reviewers: Reviewers = "minimal", flaws: bool = False) -> None:
        self.container, self.gateway, self.bench = container, gateway, bench
        self.reviewers, self.flaws = reviewers, flaws
        self._items = load_bench(bench)

    def items(self) -> list[Item]:
        return self._items

    def options(self) -> dict[str, Any]:
        return {"data": str(self.bench), "reviewers": self.reviewers, "flaws": self.flaws}

    def estimate_tokens(self, item: Item) -> int:
        chars = min(Path(item.data["path"]).stat().st_size, 24000)
        return CALLS[self.reviewers] * (chars // 3 + 1500)

    async def run_item(self, item: Item, job_id: str) -> Outcome:
        path = Path(item.data["path"])
        planted: dict[str, Any] = {}
        if self.flaws:
            path, planted = self._plant(item, job_id)
        run = await review_paper(self.container, path, reviewers=self.reviewers, job_id=job_id,
                                 out_dir=self.container.settings.home_dir / "eval" / job_id,
                                 gateway=self.gateway)
        report = run.report
        scores = {s.reviewer: s.final for s in report.scores}
        panel = m.mean(list(scores.values())) if scores else 5.0
        human = sum(item.data["ratings"]) / len(item.data["ratings"])
        predicted = report.recommendation in ACCEPTING
        result = {"paper": item.id, "accepted": item.data["accepted"], "human_mean": human,
                  "recommendation": report.recommendation, "predicted_accept": predicted,
                  "panel_score": panel, "role_scores": scores,
                  "share_found": report.verification.share_found,
                  "share_supported": report.verification.share_supported,
                  "comments": len(report.comments), "status": run.status,
                  "scores": {"decision_correct": float(predicted == item.data["accepted"]),
                             "panel_score": panel, "abs_error": abs(panel - human)}}
        if planted:
            panel_hits = panel_catches(report, planted.pop("objects"))
            for flaw in planted["flaws"]:
                flaw["panel"] = panel_hits[flaw["id"]]
            result["flaws"] = planted["flaws"]
            result["scores"]["flaw_recall_panel"] = m.mean([float(f["panel"])
                                                            for f in planted["flaws"]])
        usage = report.usage
        return Outcome(result, int(usage.get("tokens_in", 0)) + int(usage.get("tokens_out", 0)),
                       float(usage.get("cost_usd", 0.0)))

    def _plant(self, item: Item, job_id: str) -> tuple[Path, dict[str, Any]]:
        path = Path(item.data["path"])
        text = path.read_text(encoding="utf-8")
        flawed = plant_paper(text, path.name, index=self._items.index(item))
        out = self.container.settings.home_dir / "eval" / "flawed" / f"{item.id}.txt"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(flawed["text"], encoding="utf-8")
        return out, flawed

    def summarize(self, results: list[dict[str, Any]]) -> dict[str, Any]:
        return review_summary(results)


def plant_paper(text: str, name: str, *, index: int) -> dict[str, Any]:
    """Five flaws (kinds rotate with ``index``; a kind without a site gives way to the next)
    planted by a paper-seeded rng, with code's
    catches: {"text", "flaws": [dicts], "objects": [PlantedFlaw]}."""
    clean = parse_bytes(text.encode("utf-8"), name)
    start = (index + 1) % len(KINDS)  # paper i leaves out kind i unless another has no site
    kinds = [*KINDS[start:], *KINDS[:start]]
    planted = plant_flaws(text, clean, kinds, random.Random(zlib.crc32(name.encode())),
                          limit=FLAWS_PER_PAPER)
    flawed = parse_bytes(planted.text.encode("utf-8"), name)
    caught = code_catches(flawed, clean, planted.flaws)
    flaws = [{**{k: v for k, v in asdict(f).items() if k != "anchor"},
              "anchor": f.anchor.model_dump(include={"page", "line_start", "line_end"}),
              "code": caught[f.id]} for f in planted.flaws]
    return {"text": planted.text, "flaws": flaws, "objects": planted.flaws}


def review_summary(results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Agreement with humans (with bootstrap intervals), per role, and flaw recall."""
    truth = [bool(r["accepted"]) for r in results]
    out: dict[str, Any] = {"papers": len(results), "metrics": _agreement(
        truth, [bool(r["predicted_accept"]) for r in results],
        [float(r["panel_score"]) for r in results], [float(r["human_mean"]) for r in results])}
    roles = sorted({role for r in results for role in r["role_scores"]})
    out["roles"] = {}
    for role in roles:
        rows = [r for r in results if role in r["role_scores"]]
        scores = [float(r["role_scores"][role]) for r in rows]
        out["roles"][role] = {
            "papers": len(rows),
            "auc": _ci(m.auc, [bool(r["accepted"]) for r in rows], scores),
            "pearson": _ci(m.pearson, scores, [float(r["human_mean"]) for r in rows]),
            "spearman": _ci(m.spearman, scores, [float(r["human_mean"]) for r in rows])}
    flaws = [f for r in results for f in r.get("flaws", [])]
    if flaws:
        out["flaws"] = flaw_recall(flaws)
    out["published"] = [asdict(p) for p in (*REVIEW, *(FLAWS if flaws else ()))]
    return out


def flaw_recall(flaws: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Recall by code alone and by the panel, per flaw kind and overall."""
    per_kind = {}
    for kind in KINDS:
        mine = [f for f in flaws if f["kind"] == kind]
        if mine:
            per_kind[kind] = {"planted": len(mine),
                              "code": sum(bool(f["code"]) for f in mine) / len(mine),
                              "panel": sum(bool(f.get("panel")) for f in mine) / len(mine)}
    return {"planted": len(flaws), "code": sum(bool(f["code"]) for f in flaws) / len(flaws),
            "panel": sum(bool(f.get("panel")) for f in flaws) / len(flaws),
            "either": sum(bool(f["code"] or f.get("panel")) for f in flaws) / len(flaws),
            "by_kind": per_kind}


def _agreement(truth: list[bool], predicted: list[bool], score: list[float],
               human: list[float]) -> dict[str, Any]:
    return {"decision_accuracy": _ci(m.accuracy, truth, predicted),
            "balanced_accuracy": _ci(m.balanced_accuracy, truth, predicted),
            "auc": _ci(m.auc, truth, score),
            "pearson": _ci(m.pearson, score, human),
            "spearman": _ci(m.spearman, score, human)}


def _ci(statistic: Any, *columns: Sequence[Any]) -> dict[str, float]:
    interval = m.bootstrap_ci(statistic, *columns)
    return {"value": interval.value, "low": interval.low, "high": interval.high}


def evaluation(container: Container, gateway: Gateway, request: EvalRequest,
               data: Path) -> ReviewEvaluation:
    """`papermind eval review`: the bench under ``data`` (its iclr_bench folder if any)."""
    bench = data / "iclr_bench" if (data / "iclr_bench").is_dir() else data
    panel: Reviewers = "full" if request.reviewers == "full" else "minimal"
    return ReviewEvaluation(container, gateway, bench, reviewers=panel, flaws=request.flaws)
