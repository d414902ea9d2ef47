"""Fixtures of the deep-reading tests: the real paper parsed by ingestion, a context with the
real grounding engine (scripts and helpers: tests/support/reading_script.py)."""

from __future__ import annotations

from typing import Any

import pytest

from papermind.domain import Paper
from papermind.grounding import GroundingEngine
from papermind.ingest import parse_bytes
from papermind.llm.testing import FakeGateway, fake_gateway
from papermind.workflows.deep_reading import ReadingContext
from tests.support.reading_script import PAPER_MD, ContextFactory, Papers


@pytest.fixture(scope="session")
def paper() -> Paper:
    return parse_bytes(PAPER_MD.encode(), "sparse_routing.md")


@pytest.fixture
def make_context(paper: Paper) -> ContextFactory:
    """``make_context(script, max_rewrites=1)`` -> (context, gateway) with real grounding."""
    def build(script: dict[str, list[Any]], **knobs: Any) -> tuple[ReadingContext, FakeGateway]:
        gateway = fake_gateway(script)
        ctx = ReadingContext(gateway=gateway, grounder=GroundingEngine(), papers=Papers(paper),
                             **knobs)
        return ctx, gateway
    return build
