"""ReferenceResolver: markers, keys, author-year, titles; invented works resolve to nothing."""

from __future__ import annotations

import pytest

from papermind.domain import Citation, Reference
from papermind.grounding import ReferenceResolver
from tests.grounding.paper_builder import page, paper, references_paper

RESOLVER = ReferenceResolver(references_paper())


@pytest.mark.parametrize(("cited", "key", "method"), [
    ("Ho et al., 2020", "ho2020", "author_year"),
    ("(Ho et al., 2020)", "ho2020", "author_year"),
    ("Ho, Jain and Abbeel (2020)", "ho2020", "author_year"),
    ("Karras et al., 2022a", "karras2022a", "author_year"),
    ("Karras and Laine (2022b)", "karras2022b", "author_year"),
    ("Karras & Laine, 2022", "karras2022b", "author_year"),  # the second author decides
    ("Kingma & Ba (2014)", "kingma2014", "author_year"),  # authors and year from the raw entry
    ("van der Maaten and Hinton, 2008", "maaten2008", "author_year"),
    ("ho2020", "ho2020", "key"),
    ("Denoising diffusion probabilistic models", "ho2020", "title"),
    ("denoising diffusion probabilistic model", "ho2020", "title"),
    ("Adam: a method for stochastic optimization", "kingma2014", "title"),
    ("J. Ho, A. Jain, P. Abbeel. Denoising diffusion probabilistic models. NeurIPS 2020.", "ho2020",
     "title"),
])
def test_resolves(cited: str, key: str, method: str) -> None:
    check = RESOLVER.check(cited)
    assert check.reference is not None and check.reference.key == key, check
    assert check.method == method and check.verified


@pytest.mark.parametrize("cited", [
    "Ho et al., 2021",  # real author, wrong year
    "Smith et al., 2020",  # unknown author, real year
    "Karras et al., 2022c",  # no third Karras 2022 entry
    "Attention is all you need",
    "Denoising diffusion probabilistic models for quantum chemistry",
    "J. Ho. Quantum diffusion for cats. NeurIPS 2020.",
    "Denoising diffusion probabilistic models (2017)",  # a real title with a wrong year
    "[3]",  # author-year bibliography: a number is no entry
    "", "2020",
])
def test_invented_or_unusable_citations_resolve_to_nothing(cited: str) -> None:
    check = RESOLVER.check(cited)
    assert check.reference is None and not check.verified and check.reasons


def test_ambiguous_author_year_says_so() -> None:
    check = RESOLVER.check("Karras et al., 2022")
    assert check.reference is not None and check.reference.key == "karras2022a"
    assert check.reasons == ["2 entries match; the first is shown"]


def numeric_paper() -> ReferenceResolver:
    refs = [Reference(key=str(i), index=i, raw=f"A. Author{i}. Title number {i}. 2019.",
                      authors=[f"A. Author{i}"], title=f"Title number {i}", year=2019)
            for i in range(1, 10)]
    citations = [Citation(marker="[3, 5-7]", page=1, line=1),
                 Citation(marker="[2]", page=1, line=2, reference_keys=["2"])]
    return ReferenceResolver(paper(page(1, ["text [3, 5-7]", "more [2]"]), references=refs,
                                   citations=citations))


def test_numeric_markers_and_in_text_citations() -> None:
    resolver = numeric_paper()
    assert [r.key for r in resolver.resolve_all("[3, 5-7]")] == ["3", "5", "6", "7"]
    assert resolver.resolve("[4]") is not None and resolver.resolve("4") is not None
    assert resolver.resolve("[12]") is None
    assert [c.marker for c in resolver.citations_for("6")] == ["[3, 5-7]"]
    assert [c.marker for c in resolver.citations_for("2")] == ["[2]"]
    assert resolver.citations_for("9") == []


def test_author_year_marker_lists() -> None:
    refs = RESOLVER.resolve_all("(Ho et al., 2020; Kingma & Ba, 2014; Smith, 2001)")
    assert [r.key for r in refs] == ["ho2020", "kingma2014"]


def test_a_paper_without_bibliography() -> None:
    check = ReferenceResolver(paper(page(1, ["x"]))).check("Ho et al., 2020")
    assert check.reference is None and "no parsed bibliography" in check.reasons[0]


def test_lead_ins_and_several_years_in_one_marker() -> None:
    assert [r.key for r in RESOLVER.resolve_all("(e.g., Ho et al., 2020)")] == ["ho2020"]
    assert [r.key for r in RESOLVER.resolve_all("(see Karras et al., 2022a, 2022b)")] == [
        "karras2022a", "karras2022b"]
    assert RESOLVER.resolve("cf. Kingma & Ba, 2014") is not None


def test_marker_variants_seen_in_real_papers() -> None:
    assert [r.key for r in RESOLVER.resolve_all("(Karras et al., 2022a,b)")] == [
        "karras2022a", "karras2022b"]
    assert [r.key for r in RESOLVER.resolve_all(
        "(including work on denoising, e.g., Ho et al., 2020)")] == ["ho2020"]
    assert RESOLVER.resolve("(Ho et al., 2020, DDPM)") is not None
    assert RESOLVER.resolve("van der Maa- ten and Hinton, 2008") is None  # not a surname
