"""Deterministic matching of an entry with a found work: same work? which fields differ?"""

from __future__ import annotations

from typing import Any

import pytest

from papermind.domain.paper import Reference
from papermind.domain.scholar import FoundWork
from papermind.scholar.matching import mismatches, same_work, venues_agree

LSTM = FoundWork(source="openalex", id="W1", doi="10.1162/neco.1997.9.8.1735",
                 title="Long Short-Term Memory", authors=["Sepp Hochreiter", "Jürgen Schmidhuber"],
                 year=1997, venue="Neural Computation", kind="article")


def ref(**fields: Any) -> Reference:
    base: dict[str, Any] = {"key": "1", "index": 1, "raw": "", "title": None}
    base.update(fields)
    if not base["raw"]:
        base["raw"] = f"{', '.join(base.get('authors', []))}. {base['title']}. {base.get('year')}."
    return Reference(**base)


def test_a_faithful_entry_matches_with_no_field_wrong() -> None:
    entry = ref(title="Long short-term memory", authors=["S. Hochreiter", "J. Schmidhuber"],
                year=1997, venue="Neural Comput.")
    assert same_work(entry, LSTM) and mismatches(entry, LSTM) == []


@pytest.mark.parametrize(("change", "field"), [
    ({"year": 1995}, "year"),
    ({"authors": ["J. Schmidhuber", "S. Hochreiter"]}, "authors"),
    ({"venue": "Journal of Chemical Physics"}, "venue"),
])
def test_each_changed_field_is_named(change: dict[str, Any], field: str) -> None:
    entry = ref(**{"title": "Long short-term memory", "authors": ["S. Hochreiter"],
                   "year": 1997, **change})
    assert same_work(entry, LSTM)
    assert [m.field for m in mismatches(entry, LSTM)] == [field]


def test_a_look_alike_title_is_not_the_work() -> None:
    invented = ref(title="Long short-term memory for graph streams", authors=["A. Rossi"],
                   year=2022)
    assert not same_work(invented, LSTM)


def test_a_real_doi_on_an_invented_entry_names_another_work() -> None:
    invented = ref(title="Neural topology of citation graphs", authors=["T. Nguyen"], year=2021,
                   doi="10.1162/neco.1997.9.8.1735")
    assert not same_work(invented, LSTM)
    garbled = ref(title="Long short-term memory networks, Neural Computation 9(8)",
                  authors=["S. Hochreiter"], year=1997, doi="10.1162/neco.1997.9.8.1735")
    assert same_work(garbled, LSTM)


def test_an_entry_whose_title_was_not_parsed_is_matched_on_its_printed_text() -> None:
    entry = ref(raw="Hochreiter, S. and Schmidhuber, J. Long short-term memory. Neural "
                    "Computation, 9(8), 1997.", title=None, year=1997)
    assert same_work(entry, LSTM) and mismatches(entry, LSTM) == []
    changed = ref(raw="Bengio, Y. and Schmidhuber, J. Long short-term memory. Neural "
                      "Computation, 9(8), 1997.", title=None, year=1997)
    assert [m.field for m in mismatches(changed, LSTM)] == ["authors"]
    longer = ref(raw="Hochreiter, S. Long short-term memory networks for everything. 1997.",
                 title=None, year=1997)
    assert not same_work(longer, LSTM)


def test_a_preprint_cited_by_its_posting_year_is_not_a_year_mismatch() -> None:
    published = FoundWork(source="crossref", id="x", doi="10.18653/v1/n19-1423",
                          title="BERT: Pre-training of deep bidirectional transformers for "
                                "language understanding", authors=["Jacob Devlin"], year=2019,
                          venue="Proceedings of NAACL", kind="proceedings-article")
    entry = ref(title=published.title, authors=["J. Devlin"], year=2018,
                venue="arXiv preprint arXiv:1810.04805", arxiv="1810.04805")
    assert mismatches(entry, published) == []


def test_a_published_citation_of_a_work_known_only_as_a_preprint_is_no_year_mismatch() -> None:
    adam = FoundWork(source="openalex", id="W9", doi="10.48550/arxiv.1412.6980",
                     title="Adam: A method for stochastic optimization", authors=["D. Kingma"],
                     year=2014, venue="arXiv (Cornell University)", kind="preprint")
    entry = ref(title=adam.title, authors=["Kingma, D. P."], year=2015,
                venue="International Conference on Learning Representations")
    assert mismatches(entry, adam) == []
    assert [m.field for m in mismatches(entry.model_copy(update={"year": 2019}), adam)] == \
        ["year"]


@pytest.mark.parametrize(("cited", "found"), [
    ("Proceedings of NAACL-HLT (pp. 4171-4186", "Proceedings of the 2019 Conference of the "
     "North American Chapter of the Association for Computational Linguistics"),
    ("NeurIPS", "Advances in Neural Information Processing Systems"),
    ("ICML", "International Conference on Machine Learning"),
    ("J. Mach. Learn. Res.", "Journal of Machine Learning Research"),
    ("In CVPR", "2016 IEEE Conference on Computer Vision and Pattern Recognition (CVPR)"),
    ("Proc. ACL", "Proceedings of the 58th Annual Meeting of the Association for "
                  "Computational Linguistics"),
])
def test_venues_printed_differently_agree(cited: str, found: str) -> None:
    assert venues_agree(cited, found)


def test_unrelated_venues_disagree() -> None:
    assert not venues_agree("Nature", "Neural Computation")
