"""Mock OpenAlex, Crossref and arXiv servers on 127.0.0.1, and settings pointing at them."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from tests.scholar.mock_sources import MockArxiv, MockCrossref, MockOpenAlex
from tests.scholar.record import RECORD
from tests.support.cli import cli

__all__ = ["cli", "Mocks", "mocks"]


@dataclass
class Mocks:
    openalex: MockOpenAlex
    crossref: MockCrossref
    arxiv: MockArxiv

    def sent(self) -> int:
        return len(self.openalex.requests) + len(self.crossref.requests) + len(self.arxiv.requests)


@pytest.fixture
def mocks(monkeypatch: pytest.MonkeyPatch) -> Iterator[Mocks]:
    """The three mocks serving RECORD; PAPERMIND_SCHOLAR__* aimed at them (enabled is left
    to each test), with short timeouts and backoff."""
    found = Mocks(MockOpenAlex(list(RECORD), hang_s=2.0), MockCrossref(list(RECORD), hang_s=2.0),
                  MockArxiv(list(RECORD)))
    for name, mock in (("OPENALEX", found.openalex), ("CROSSREF", found.crossref),
                       ("ARXIV", found.arxiv)):
        monkeypatch.setenv(f"PAPERMIND_SCHOLAR__{name}_URL", mock.base_url)
    monkeypatch.setenv("PAPERMIND_SCHOLAR__MAILTO", "tests@example.org")
    monkeypatch.setenv("PAPERMIND_SCHOLAR__TIMEOUT_S", "0.5")
    monkeypatch.setenv("PAPERMIND_SCHOLAR__BACKOFF_BASE_S", "0.05")
    monkeypatch.setenv("PAPERMIND_SCHOLAR__MAX_RETRIES", "2")
    monkeypatch.setenv("PAPERMIND_SCHOLAR__MIN_INTERVAL_S", "{}")
    monkeypatch.setenv("PAPERMIND_SCHOLAR__ALLOW_HOSTS", '["127.0.0.1"]')  # the mocks' host
    yield found
    for mock in (found.openalex, found.crossref, found.arxiv):
        with contextlib.suppress(OSError):
            mock.stop()
