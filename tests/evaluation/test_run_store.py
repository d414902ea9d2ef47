"""The eval run store: a migration of its own, items stored once, newest finished run."""

from __future__ import annotations

import pytest

from papermind.db import SqlDatabase
from papermind.errors import NotFoundError
from papermind.evaluation.runs.store import EvalItem, EvalRunStore


def test_runs_and_items_round_trip(library_db: SqlDatabase) -> None:
    db = library_db
    store = EvalRunStore(db)
    store.create("qa-1", "qa", {"dataset": "qasper", "models": {"answerer": "m"}})
    store.add_item("qa-1", EvalItem("q1", {"scores": {"f1": 0.5}}, tokens=10, cost_usd=0.1))
    store.add_item("qa-1", EvalItem("q1", {"scores": {"f1": 0.9}}))  # stored once: kept
    store.add_item("qa-1", EvalItem("q2", {"scores": {"f1": 1.0}}))
    assert [(i.item_id, i.result["scores"]["f1"]) for i in store.items("qa-1")] == [
        ("q1", 0.5), ("q2", 1.0)]
    assert store.latest("qa") is None  # still running
    store.finish("qa-1", {"metrics": {}})
    store.create("qa-2", "qa", {"dataset": "pubmedqa"})
    store.finish("qa-2", {})
    assert store.latest("qa", same={"dataset": "qasper"}).id == "qa-1"  # type: ignore[union-attr]
    assert store.get("qa-2").settings == {"dataset": "pubmedqa"}
    with pytest.raises(NotFoundError, match="2 match"):
        store.get("qa-")
    assert EvalRunStore(db).runs("qa")[0].status == "finished"  # migrating again is a no-op
    assert db.version("eval_runs") == 1
