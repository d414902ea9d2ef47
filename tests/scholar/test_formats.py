"""The adapters read the sources' documented formats: OpenAlex Work, Crossref message,
arXiv Atom; retractions both ways Crossref records them; rate-limit headers."""

from __future__ import annotations

import pytest

from papermind.scholar.arxiv import parse_feed
from papermind.scholar.crossref import parse_work as crossref_work
from papermind.scholar.limiter import RateLimiter, retry_after
from papermind.scholar.openalex import parse_work as openalex_work


def test_openalex_work() -> None:
    work = openalex_work({
        "id": "https://openalex.org/W2064675550", "doi": "https://doi.org/10.1162/NECO.1997.9.8.1735",
        "title": "Long Short-Term Memory", "publication_year": 1997, "type": "article",
        "is_retracted": False, "authorships": [{"author": {"display_name": "Sepp Hochreiter"}}],
        "primary_location": {"source": {"display_name": "Neural Computation"}},
        "abstract_inverted_index": {"Learning": [0], "to": [1], "store": [2]}})
    assert (work.id, work.doi, work.venue, work.abstract) == (
        "W2064675550", "10.1162/neco.1997.9.8.1735", "Neural Computation", "Learning to store")


def test_crossref_retraction_on_the_work_and_on_a_notice() -> None:
    base = {"DOI": "10.1016/S0140-6736(97)11096-0", "title": ["Ileal-lymphoid-nodular hyperplasia"],
            "author": [{"given": "A. J.", "family": "Wakefield"}],
            "issued": {"date-parts": [[1998, 2, 28]]}, "container-title": ["The Lancet"]}
    plain = crossref_work(base)
    assert not plain.retracted and plain.year == 1998 and plain.authors == ["A. J. Wakefield"]
    updated_by = crossref_work({**base, "updated-by": [{"DOI": "10.1016/x", "type": "retraction"}]})
    assert updated_by.retracted
    on_work = crossref_work({**base, "update-to": [{"DOI": "10.1016/x", "type": "retraction"}]})
    assert on_work.retracted
    notice = crossref_work({"DOI": "10.1016/s0140-6736(10)60175-4",
                            "title": ["Retraction—Ileal-lymphoid-nodular hyperplasia"],
                            "update-to": [{"DOI": "10.1016/S0140-6736(97)11096-0",
                                           "type": "retraction"}]})
    assert not notice.retracted and notice.retracts == ["10.1016/s0140-6736(97)11096-0"]


def test_arxiv_atom_entry_and_error_feed() -> None:
    feed = """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">
  <entry><id>http://arxiv.org/abs/1412.6980v9</id><published>2014-12-22T13:54:29Z</published>
    <title>Adam: A Method for
      Stochastic Optimization</title><summary>We introduce Adam.</summary>
    <author><name>Diederik P. Kingma</name></author><author><name>Jimmy Ba</name></author>
    <link title="pdf" href="http://arxiv.org/pdf/1412.6980v9" rel="related" type="application/pdf"/>
  </entry>
  <entry><id>http://arxiv.org/api/errors#incorrect_id_format_for_x</id><title>Error</title></entry>
</feed>"""
    (work,) = parse_feed(feed)
    assert (work.arxiv, work.title, work.year, work.doi) == (
        "1412.6980", "Adam: A Method for Stochastic Optimization", 2014, "10.48550/arxiv.1412.6980")
    assert work.authors == ["Diederik P. Kingma", "Jimmy Ba"] and work.is_preprint


def test_rate_limit_headers() -> None:
    slept: list[float] = []
    now = [100.0]
    limiter = RateLimiter(0.0, clock=lambda: now[0], sleep=slept.append)
    limiter.observe({"x-rate-limit-limit": "5", "x-rate-limit-interval": "1s"})
    assert limiter.interval_s == 0.2
    limiter.wait()
    limiter.wait()
    assert slept == [pytest.approx(0.2)]
    limiter.observe({"x-ratelimit-remaining": "0", "x-ratelimit-reset": "3"})
    limiter.wait()
    assert slept[-1] == pytest.approx(3.0)
    assert retry_after({"retry-after": "7"}) == 7.0
    assert retry_after({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}, now=1445412480.0) == 0.0


def test_semantic_scholar_paper() -> None:
    from papermind.scholar.semantic_scholar import parse_paper

    work = parse_paper({"paperId": "abc", "title": "Adam", "year": 2014, "venue": "ICLR",
                        "externalIds": {"ArXiv": "1412.6980", "DOI": "10.48550/arXiv.1412.6980"},
                        "authors": [{"name": "Diederik P. Kingma"}],
                        "openAccessPdf": {"url": "https://arxiv.org/pdf/1412.6980"}})
    assert (work.arxiv, work.doi, work.pdf_url) == (
        "1412.6980", "10.48550/arxiv.1412.6980", "https://arxiv.org/pdf/1412.6980")


def test_doi_paths_keep_parentheses_and_encode_the_unsafe() -> None:
    from papermind.scholar.source import doi_path

    assert doi_path("10.1016/s0140-6736(97)11096-0") == "10.1016/s0140-6736(97)11096-0"
    assert doi_path("10.1002/(sici)1097<1::aid>3.0.co;2-#") == \
        "10.1002/(sici)1097%3C1::aid%3E3.0.co;2-%23"


def test_dblp_hit() -> None:
    from papermind.scholar.dblp import parse_hit

    work = parse_hit({"key": "conf/nips/VaswaniSPUJGKP17", "title": "Attention is All you Need.",
                      "venue": "NIPS", "year": "2017", "type": "Conference and Workshop Papers",
                      "authors": {"author": [{"@pid": "1", "text": "Ashish Vaswani"},
                                             {"@pid": "2", "text": "Wei Wang 0001"}]},
                      "ee": "https://proceedings.neurips.cc/paper/2017/hash/3f5ee243.html"})
    assert (work.title, work.year, work.venue) == ("Attention is All you Need", 2017, "NIPS")
    assert work.authors == ["Ashish Vaswani", "Wei Wang"] and not work.is_preprint
    single = parse_hit({"key": "x", "title": "A.", "venue": "CoRR", "year": "2014",
                        "authors": {"author": {"text": "Jimmy Ba"}},
                        "ee": "http://arxiv.org/abs/1412.6980"})
    assert single.authors == ["Jimmy Ba"] and single.arxiv == "1412.6980" and single.is_preprint
