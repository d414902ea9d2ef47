"""``eval reading``: how well deep readings hold, per paper and across papers.

Per paper: points, the share of points with a found anchor, the share found AND supported
(issue 12's support verdicts), credibility, rewrites and tokens; across papers each of these
as a distribution (min, quartiles, max, mean).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from papermind.errors import InputError
from papermind.evaluation.runs.loop import Item, Outcome
from papermind.llm import Gateway
from papermind.services.container import Container
from papermind.services.library import SUPPORTED_SUFFIXES
from papermind.services.reading import read_paper

if TYPE_CHECKING:
    from papermind.evaluation.runs.jobs import EvalRequest

CREDIBILITY = {"low": 0.0, "medium": 0.5, "high": 1.0}
DISTRIBUTED = ("points", "share_found", "share_supported", "credibility", "rewrites", "tokens")


def paper_items(source: Path) -> list[Item]:
    """The papers of a folder (its ``papers/`` subfolder if it has one), by file name."""
    folder = source / "papers" if (source / "papers").is_dir() else source
    if source.is_file():
        return [Item(source.stem, {"path": str(source)})]
    files = sorted(p for p in folder.glob("*") if p.suffix.lower() in SUPPORTED_SUFFIXES)
    if not files:
        raise InputError(f"{source}: no papers ({', '.join(sorted(SUPPORTED_SUFFIXES))})")
    return [Item(p.stem, {"path": str(p)}) for p in files]


class ReadingEvaluation:
    kind = "reading"
    roles: tuple[str, ...] = ("reader", "checker", "questioner")

    def __init__(self, container: Container, gateway: Gateway, source: Path) -> None:
        self.container, self.gateway, self.source = container, gateway, source
        self._items = paper_items(source)

    def items(self) -> list[Item]:
        return self._items

    def options(self) -> dict[str, Any]:
        return {"data": str(self.source)}

    def estimate_tokens(self, item: Item) -> int:
        size = Path(item.data["path"]).stat().st_size
        return 3 * (min(size // 3, 6000) + 1500)

    async def run_item(self, item: Item, job_id: str) -> Outcome:
        run = await read_paper(self.container, Path(item.data["path"]), job_id=job_id,
                               out_dir=self.container.settings.home_dir / "eval" / job_id,
                               gateway=self.gateway)
        report = run.report
        points = len(report.points)
        found = sum(p.found for p in report.points)
        supported = sum(p.found and p.verdict == "supported" for p in report.points)
        tokens = report.usage.tokens_in + report.usage.tokens_out
        scores = {"share_found": found / points if points else 0.0,
                  "share_supported": supported / points if points else 0.0,
                  "credibility": CREDIBILITY[report.credibility],
                  "points": float(points), "rewrites": float(report.rewrites),
                  "tokens": float(tokens)}
        verdicts: dict[str, int] = {}
        for p in report.points:
            verdicts[p.verdict] = verdicts.get(p.verdict, 0) + 1
        result = {"paper": item.id, "title": report.title, "credibility": report.credibility,
                  "verdicts": verdicts, "scores": scores}
        return Outcome(result, tokens, report.usage.cost_usd)

    def summarize(self, results: list[dict[str, Any]]) -> dict[str, Any]:
        return reading_summary(results)


def reading_summary(results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Distribution of every per-paper metric, and the credibility counts."""
    out: dict[str, Any] = {"papers": len(results), "metrics": {}}
    for key in DISTRIBUTED:
        values = np.array([float(r["scores"][key]) for r in results if key in r["scores"]])
        if len(values):
            q = np.percentile(values, [0, 25, 50, 75, 100])
            out["metrics"][key] = {"value": float(values.mean()), "min": float(q[0]),
                                   "q1": float(q[1]), "median": float(q[2]),
                                   "q3": float(q[3]), "max": float(q[4]), "n": len(values)}
    out["credibility"] = {level: sum(r["credibility"] == level for r in results)
                          for level in CREDIBILITY}
    return out


def evaluation(container: Container, gateway: Gateway, request: EvalRequest,
               data: Path) -> ReadingEvaluation:
    """`papermind eval reading`: the papers under ``data`` (its iclr_bench folder if any)."""
    bench = data / "iclr_bench" if (data / "iclr_bench").is_dir() else data
    return ReadingEvaluation(container, gateway, bench)
