"""Collaborators and knobs of a deep reading, passed as the graph's runtime context."""

from __future__ import annotations

from dataclasses import dataclass

from papermind.llm import Gateway
from papermind.workflows.deep_reading.condense import TokenCounter, estimate_tokens
from papermind.workflows.ports import Grounder, PaperSource, ProgressCallback


@dataclass
class ReadingContext:
    """What the nodes need; services build it from Settings (tests from fakes)."""

    gateway: Gateway
    grounder: Grounder
    papers: PaperSource
    context_budget: int = 6000
    """Tokens of paper text the reader may see (the rest of its window is for output)."""
    max_rewrites: int = 1
    """Rewrites allowed when the checker finds credibility low."""
    explain: bool = True
    """Extractive reading: the model explains each passage in plain words. Off for a model
    whose glosses measured wrong too often (the bundled 0.5B): passages are shown quoted."""
    reask_explanations: bool = False
    """Extractive reading: a rewrite round re-asks the explanations code dropped. Off by
    default: it bought one explanation of ten for 147-325 s of the bundled model."""
    max_points: int = 4
    """Points per part (method, derivation, results) kept from the reader's answer."""
    max_quotes: int = 2
    """Quotes per point kept."""
    max_questions: int = 5
    extractive: bool = False
    """Build the reading from passages code selects (bundled model, small windows): the
    model only explains each passage; otherwise the reader model analyses the paper."""
    count_tokens: TokenCounter = estimate_tokens
    progress: ProgressCallback | None = None

    def announce(self, node: str, **info: object) -> None:
        """Tell the caller a node started (live progress)."""
        if self.progress is not None:
            self.progress(node, {"event": "started", **info})

    def report(self, node: str, summary: str) -> None:
        """Tell the caller how far a running node is (it stays running)."""
        if self.progress is not None:
            self.progress(node, {"event": "progress", "summary": summary})
