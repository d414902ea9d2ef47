"""The real adapters over httpx against misbehaving mock sources: waits, retries, down."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from papermind.domain.paper import Reference
from papermind.errors import SourceDownError
from papermind.scholar.cache import MemoryCache
from papermind.scholar.crossref import CrossrefSource
from papermind.scholar.http import HttpPolicy, SourceHttp
from papermind.scholar.openalex import OpenAlexSource
from papermind.scholar.verify import ReferenceChecker
from tests.scholar.mock_sources import Fault, MockCrossref, MockOpenAlex
from tests.scholar.record import RECORD

FAST = HttpPolicy(timeout_s=0.5, max_retries=2, backoff_base_s=0.05, max_wait_s=5.0,
                  allow_hosts=("127.0.0.1",))


@pytest.fixture
def openalex() -> Iterator[MockOpenAlex]:
    mock = MockOpenAlex(list(RECORD), hang_s=1.5)
    yield mock
    mock.stop()


def _source(mock: MockOpenAlex, cache: MemoryCache | None = None) -> OpenAlexSource:
    return OpenAlexSource(SourceHttp("openalex", "OpenAlex", mock.base_url,
                                     cache or MemoryCache(), FAST))


def test_429_with_retry_after_is_waited_for(openalex: MockOpenAlex) -> None:
    openalex.fail_next(Fault("429", retry_after="1"))
    source = _source(openalex)
    started = time.monotonic()
    work = source.lookup("doi", "10.1162/neco.1997.9.8.1735")
    assert work is not None and work.title == "Long short-term memory"
    assert time.monotonic() - started >= 0.95
    assert len(openalex.requests) == 2 and source.down is None


def test_lookups_are_logged_as_events(openalex: MockOpenAlex,
                                      caplog: pytest.LogCaptureFixture) -> None:
    cache = MemoryCache()
    with caplog.at_level("INFO", logger="papermind.scholar"):
        _source(openalex, cache).lookup("doi", "10.1162/neco.1997.9.8.1735")
        _source(openalex, cache).lookup("doi", "10.1162/neco.1997.9.8.1735")
    events = [(r.source, r.status, r.cached) for r in caplog.records  # type: ignore[attr-defined]
              if r.getMessage() == "scholar lookup"]
    assert events == [("openalex", 200, False), ("openalex", 200, True)]
    assert len(openalex.requests) == 1


def test_a_retry_after_longer_than_allowed_gives_up_at_once(openalex: MockOpenAlex) -> None:
    openalex.fail_next(Fault("429", retry_after="3600"))
    source = _source(openalex)
    with pytest.raises(SourceDownError, match="rate limited for 3600 s"):
        source.lookup("doi", "10.1162/neco.1997.9.8.1735")
    assert len(openalex.requests) == 1


def test_500s_are_retried_with_backoff_then_reported_down(openalex: MockOpenAlex) -> None:
    openalex.fail_next(Fault("500"), Fault("500"))
    source = _source(openalex)
    assert source.lookup("doi", "10.1162/neco.1997.9.8.1735") is not None  # third try answers
    openalex.fail_next(Fault("500"), Fault("500"), Fault("500"))
    with pytest.raises(SourceDownError, match=r"OpenAlex is down \(HTTP 500\)"):
        source.search("residual learning")
    requests = len(openalex.requests)
    with pytest.raises(SourceDownError):  # down for the rest of the run: nothing more sent
        source.search("attention")
    assert len(openalex.requests) == requests


def test_a_hanging_source_times_out(openalex: MockOpenAlex) -> None:
    openalex.fail_next(Fault("hang"), Fault("hang"), Fault("hang"))
    with pytest.raises(SourceDownError, match="timed out"):
        _source(openalex).search("attention is all you need")


def test_malformed_json_is_a_fault_never_cached(openalex: MockOpenAlex) -> None:
    cache = MemoryCache()
    openalex.fail_next(Fault("malformed"))
    with pytest.raises(SourceDownError, match="malformed"):
        _source(openalex, cache).search("attention is all you need")
    assert cache.answers == {}
    assert _source(openalex, cache).search("attention is all you need")[0].title == \
        "Attention is all you need"


def test_crossref_rate_limit_headers_set_the_pace() -> None:
    mock = MockCrossref(list(RECORD))
    try:
        http = SourceHttp("crossref", "Crossref", mock.base_url, MemoryCache(), FAST)
        CrossrefSource(http).lookup("doi", "10.1162/neco.1997.9.8.1735")
        assert http.limiter.interval_s == pytest.approx(1 / 50)
    finally:
        mock.stop()


def test_each_reference_costs_at_most_four_lookups(openalex: MockOpenAlex) -> None:
    crossref = MockCrossref(list(RECORD))
    try:
        sources = [_source(openalex), CrossrefSource(SourceHttp(
            "crossref", "Crossref", crossref.base_url, MemoryCache(), FAST))]
        checker = ReferenceChecker(sources)
        cases = [Reference(key="1", index=1, raw="T. Nobody. A work nobody wrote. 2020. "
                           "doi:10.9999/none", title="A work nobody wrote", doi="10.9999/none",
                           authors=["T. Nobody"], year=2020),
                 Reference(key="2", index=2, raw="J. Devlin et al. BERT. arXiv:1810.04805",
                           title="BERT: Pre-training of deep bidirectional transformers for "
                           "language understanding", arxiv="1810.04805", authors=["J. Devlin"],
                           year=2018)]
        for ref in cases:
            before = len(openalex.requests) + len(crossref.requests)
            verdict = checker.check(ref)
            assert len(openalex.requests) + len(crossref.requests) - before <= 4
        assert verdict.status == "verified" and verdict.notes
    finally:
        crossref.stop()


def test_a_misparsed_title_is_searched_again_as_the_whole_entry(openalex: MockOpenAlex) -> None:
    crossref = MockCrossref(list(RECORD))
    try:
        sources = [_source(openalex), CrossrefSource(SourceHttp(
            "crossref", "Crossref", crossref.base_url, MemoryCache(), FAST))]
        entry = Reference(key="3", index=3, title="Neural Computation, 9(8)", year=1997,
                          authors=["S. Hochreiter"], raw="S. Hochreiter and J. Schmidhuber. "
                          "Long short-term memory. Neural Computation, 9(8), 1997.")
        verdict = ReferenceChecker(sources).check(entry)
        assert verdict.status == "verified" and verdict.requests == 4
        assert verdict.match is not None and verdict.match.title == "Long short-term memory"
    finally:
        crossref.stop()


def test_dblp_searches_over_http() -> None:
    from papermind.scholar.dblp import DblpSource
    from tests.scholar.mock_sources import MockDblp

    mock = MockDblp(list(RECORD))
    try:
        source = DblpSource(SourceHttp("dblp", "DBLP", mock.base_url, MemoryCache(), FAST))
        (work, *_) = source.search("Long short-term memory")
        assert (work.title, work.year, work.authors[0]) == ("Long short-term memory", 1997,
                                                            "Sepp Hochreiter")
        assert source.lookup("doi", "10.1162/neco.1997.9.8.1735") is None  # no lookup by DOI
        assert len(mock.requests) == 1
    finally:
        mock.stop()
