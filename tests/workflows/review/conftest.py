"""Fixtures of the review graph tests; scripts and helpers are in tests/support/review_script."""

from __future__ import annotations

import pytest

from papermind.domain import Paper
from tests.workflows.review.paperkit import build_paper


@pytest.fixture
def paper() -> Paper:
    return build_paper()
