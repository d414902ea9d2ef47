"""The committed search dev set (evals/search_devset.jsonl, bench/search_devset.py): big enough
to choose with, every row complete, and split per paper so a paper never straddles."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

DEVSET = Path(__file__).resolve().parents[2] / "evals" / "search_devset.jsonl"


def test_the_dev_set_is_complete_and_split_per_paper() -> None:
    rows = [json.loads(line) for line in DEVSET.read_text(encoding="utf-8").splitlines()]
    assert len(rows) >= 150
    assert all(r["question"].strip() and r["evidence"] and all(e.strip() for e in r["evidence"])
               for r in rows)
    assert len({r["id"] for r in rows}) == len(rows)
    splits: dict[str, set[str]] = {}
    for row in rows:
        splits.setdefault(row["paper"], set()).add(row["split"])
    assert all(len(s) == 1 for s in splits.values())  # never straddles
    by_split = Counter(r["split"] for r in rows)
    assert set(by_split) == {"choose", "report"} and min(by_split.values()) >= 50
    assert {r["source"] for r in rows} == {"qasper", "iclr", "latex", "zh"}
