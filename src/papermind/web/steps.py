"""A job's steps from its events: each step shows running, then done or failed, once.

A node's 'started' event opens a step; a 'progress' event says how far it is (it stays
running); its finished event closes the same step (a node that reports only when it
finishes is one done step). When the job ends failed or
cancelled, a step still open failed with it. app.js applies the same rules live.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from papermind.domain.job import JobEvent

StepState = Literal["running", "done", "failed"]


@dataclass
class Step:
    node: str
    state: StepState
    summary: str = ""


def job_steps(events: Iterable[JobEvent], status: str) -> list[Step]:
    """The steps of a job whose events are ``events`` and whose status is ``status``."""
    steps: list[Step] = []
    for event in events:
        if event.kind != "node" or not event.node:
            continue
        summary = str(event.data.get("summary") or "")
        open_step = next((s for s in reversed(steps)
                          if s.node == event.node and s.state == "running"), None)
        if event.data.get("event") == "started":
            steps.append(Step(event.node, "running", summary))
            continue
        if event.data.get("event") == "progress":  # how far a running step is
            if open_step is not None:
                open_step.summary = summary
            continue
        if open_step is None:
            steps.append(Step(event.node, "done", summary))
        else:
            open_step.state, open_step.summary = "done", summary or open_step.summary
    if status in ("failed", "cancelled", "completed"):
        for step in steps:
            if step.state == "running":
                step.state = "done" if status == "completed" else "failed"
    return steps
