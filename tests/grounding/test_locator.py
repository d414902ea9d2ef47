"""QuoteLocator on a hand-built paper: the three stages and the verification policy."""

from __future__ import annotations

import pytest

from papermind.domain import Evidence
from papermind.grounding import QuoteLocator
from tests.grounding.paper_builder import page, paper, sample_paper


@pytest.fixture(scope="module")
def locator() -> QuoteLocator:
    return QuoteLocator(sample_paper())


def clean(e: Evidence) -> bool:
    """Found with no difference code objects to (support not lowered by code)."""
    return e.found and e.support.by != "code"


def where(e: Evidence) -> tuple[int, int, int, int | None] | None:
    return None if e.anchor is None else (e.anchor.page, e.anchor.line_start, e.anchor.line_end,
                                          e.anchor.page_end)


def test_exact_within_a_line(locator: QuoteLocator) -> None:
    e = locator.locate("reaches 84.7% accuracy")
    assert (e.method, clean(e), e.score, where(e)) == ("exact", True, 1.0, (1, 2, 2, None))
    assert e.anchor is not None and e.anchor.label() == "p. 1, l. 2"
    assert [b.y0 for b in e.anchor.boxes] == [84.0]


@pytest.mark.parametrize(("quote", "expected"), [
    ("trained with stochastic gradient descent", (1, 1, 2, None)),  # hyphenation at a line end
    ("The efficient model", (1, 2, 2, None)),  # ligature in the paper
    ("THE  EFFICIENT   model", (1, 2, 2, None)),  # case and spacing
    ("which is state of the art for this budget", (1, 3, 4, None)),
    ('that "the learning rate" is the most important hyperparameter', (2, 2, 3, None)),
    ("which is state\u2013of\u2013the\u2013art", (1, 3, 4, None)),  # en dashes
    ("ﬁ", None),  # a lone ligature letter pair is not a word of the paper
])
def test_normalised_matches(locator: QuoteLocator, quote: str,
                            expected: tuple[int, int, int, None] | None) -> None:
    e = locator.locate(quote)
    assert where(e) == expected
    assert clean(e) is (expected is not None)
    if expected:
        assert e.method == "normalized"


def test_span_across_columns_and_pages(locator: QuoteLocator) -> None:
    cross_column = locator.locate("(Ho et al., 2020). A second column starts here")
    assert where(cross_column) == (1, 4, 5, None) and clean(cross_column)
    cross_page = locator.locate("as Table 2 shows. Figure 3: Accuracy per epoch")
    assert where(cross_page) == (1, 6, 1, 2) and clean(cross_page)
    assert cross_page.anchor is not None and cross_page.anchor.label() == "p. 1, l. 6 - p. 2, l. 1"
    assert {b.page for b in cross_page.anchor.boxes} == {1, 2}


def test_a_float_interrupting_the_text_is_skipped(locator: QuoteLocator) -> None:
    e = locator.locate("matters a lot for small batches, as Table 2 shows. We also observe that "
                       "the learning rate is the most important")
    assert clean(e) and e.method == "fuzzy" and where(e) == (1, 6, 3, 2)
    assert any("interrupt" in r for r in e.notes)


@pytest.mark.parametrize(("quote", "reason"), [
    ("The efficient model reaches 85.7% accuracy on CIFAR-10 after 200 epochs", "number differs"),
    ("The efficient model reaches 84.7% accuracy on CIFAR-10 after 300 epochs", "number differs"),
    ("The efficient model achieves 84.7% accuracy on CIFAR-10 after 200 epochs", "wording differs"),
    ("The efficient model reaches 84.7% on CIFAR-10 after 200 epochs", "leaves out words"),
    ("The efficient model quickly reaches 84.7% accuracy on CIFAR-10 after 200 epochs",
     "words the paper does not"),
    ("The efficient models reach 84.7% accuracy on CIFAR-10 after 200 epochs", "wording differs"),
])
def test_light_edits_are_found_but_lowered_by_code(locator: QuoteLocator, quote: str,
                                                reason: str) -> None:
    e = locator.locate(quote)
    assert e.method == "fuzzy" and where(e) == (1, 2, 3, None)
    assert e.support.verdict == "not_enough" and e.support.by == "code" and reason in e.support.reason
    assert not clean(e) and 0.75 <= e.score < 1.0
    assert any(reason in r for r in e.reasons), e.reasons
    assert "84.7% accuracy on CIFAR-10 after 200 epochs" in e.matched_text


def test_cosmetic_differences_keep_a_fuzzy_match_clean(locator: QuoteLocator) -> None:
    dropped_citation = locator.locate("which is state-of-the-art for this budget. A second column")
    assert clean(dropped_citation) and dropped_citation.method == "fuzzy"
    assert any("citation '(Ho et al., 2020).'" in r for r in dropped_citation.notes)
    spelling = QuoteLocator(paper(page(1, ["We normalise the colour histograms of every image"])))
    e = spelling.locate("We normalize the color histograms of every image")
    assert clean(e) and e.method == "fuzzy" and any("spelling" in r for r in e.notes)


def test_elided_quote_locates_each_part_in_order(locator: QuoteLocator) -> None:
    e = locator.locate("Deep networks are trained ... reaches 84.7% accuracy")
    assert clean(e) and where(e) == (1, 1, 2, None)
    assert e.matched_text == "Deep networks are trained [...] reaches 84.7% accuracy"
    reversed_parts = locator.locate("reaches 84.7% accuracy ... Deep networks are trained")
    assert reversed_parts.anchor is None and not clean(reversed_parts)


@pytest.mark.parametrize("quote", [
    "Transformers use attention to model long range dependencies",
    "the batch size matters a lot for large learning rates and small models",
    "", "   ",
])
def test_absent_text_is_not_found(locator: QuoteLocator, quote: str) -> None:
    e = locator.locate(quote)
    assert e.anchor is None and not clean(e) and e.method == "none" and e.reasons


def test_repeated_text_says_so() -> None:
    loc = QuoteLocator(paper(page(1, ["the same words here", "and the same words here"])))
    e = loc.locate("the same words here")
    assert where(e) == (1, 1, 1, None) and clean(e)
    assert any("more than once" in r for r in e.notes)


def test_text_input_without_boxes() -> None:
    from papermind.domain import Line

    lines = [Line(page=1, n=i + 1, text=t) for i, t in enumerate(["alpha beta gamma", "", "delta"])]
    e = QuoteLocator(paper(lines)).locate("gamma delta")
    assert where(e) == (1, 1, 3, None) and e.anchor is not None and e.anchor.boxes == []


def test_only_lines_that_interrupt_the_text_may_be_skipped() -> None:
    texts = ["the encoder maps every input token to a vector", "We then discuss related work",
             "in detail before the decoder reads the vectors back"]
    quote = "the encoder maps every input token to a vector in detail before the decoder reads"
    body = QuoteLocator(paper(page(1, texts))).locate(quote)
    assert body.anchor is not None and not clean(body)  # body text left out: not a quote
    assert any("leaves out" in r for r in body.reasons)
    lines = page(1, texts)
    small = [ln.model_copy(update={"font_size": 7.0 if ln.n == 2 else 10.0}) for ln in lines]
    footnote = QuoteLocator(paper(small)).locate(quote)
    assert clean(footnote) and any("interrupt" in r for r in footnote.notes)
