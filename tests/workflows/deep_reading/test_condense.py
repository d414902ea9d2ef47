"""The reader's context: full text when it fits, a faithful extractive condensation otherwise."""

from __future__ import annotations

import textwrap

from papermind.domain import Equation, Paper
from papermind.domain.reading import ContextInfo
from papermind.grounding import GroundingEngine
from papermind.ingest import parse_bytes
from papermind.workflows.deep_reading.condense import build_context as _build
from papermind.workflows.deep_reading.condense import estimate_tokens
from papermind.workflows.deep_reading.parts import split_sentences

ENGINE = GroundingEngine()


def build_context(paper: Paper, budget: int) -> tuple[str, ContextInfo]:
    return _build(paper, budget, ENGINE.numbered_text)


def _numbered(text: str) -> dict[str, str]:
    """line id -> text of every numbered line of a context."""
    page, out = 0, {}
    for raw in text.splitlines():
        if raw.startswith("[p."):
            page = int(raw[3:-1])
        elif raw != "...":
            number, _, body = raw.partition(" ")
            out[f"{page}:{number}"] = body
    return out


def _long_paper(eq_terms: int = 1) -> Paper:
    sections = []
    for n, (title, size) in enumerate([("Introduction", 8), ("Method", 16), ("Experiments", 8)],
                                      start=1):
        body = textwrap.fill(" ".join(
            f"In {title.lower()} sentence {i} we discuss detail number {i} of the "
            f"{title.lower()} at some length." for i in range(size)), 90)
        eq = " + ".join(f"w_{k} x_{k}" for k in range(1, eq_terms))
        sections.append(f"## {n} {title}\n\n{body}\n\n$$ y_{n} = f(x_{n}) {eq}$$\n")
    refs = "## Acknowledgements\n\n" + textwrap.fill(" ".join(
        f"We thank funder number {i} for support." for i in range(1, 30)), 90)
    text = "# A Long Paper\n\n## Abstract\n\nWe propose a long method.\n\n" + "\n".join(sections)
    paper = parse_bytes((text + "\n" + refs).encode(), "long.md")
    # Markdown input has no display equations: make the $$ paragraphs real Equation blocks.
    equations = [Equation(**p.model_dump(), label=str(n))
                 for n, p in enumerate((p for p in paper.paragraphs if p.text.startswith("$$")),
                                       start=1)]
    kept = [p for p in paper.paragraphs if not p.text.startswith("$$")]
    assert len(equations) == 3
    return paper.model_copy(update={"paragraphs": kept, "equations": equations})


def test_split_sentences_keeps_abbreviations_together() -> None:
    text = "We follow Smith et al. in this. See Fig. 2 and Eq. 3 for details. It works, e.g. here."
    assert split_sentences(text) == ["We follow Smith et al. in this.",
                                     "See Fig. 2 and Eq. 3 for details.", "It works, e.g. here."]


def test_full_text_when_it_fits() -> None:
    paper = _long_paper()
    text, info = build_context(paper, 100_000)
    assert not info.condensed and info.context_tokens == info.paper_tokens
    assert text == ENGINE.numbered_text(paper) and "sentence 15 we discuss" in text
    assert "\n..." not in text


def test_condensed_text_is_verbatim_proportional_and_recorded() -> None:
    paper = _long_paper()
    full, _ = build_context(paper, 100_000)
    text, info = build_context(paper, 400)
    assert info.condensed and info.method == "extractive"
    assert estimate_tokens(text) <= 400 == info.budget_tokens
    assert info.paper_tokens == estimate_tokens(full) > 400
    original = _numbered(full)
    kept = _numbered(text)
    assert kept and all(original[i] == t for i, t in kept.items())  # original ids and text
    assert len(kept) < len(original) and "\n..." in text
    by_title = {s.title: s for s in info.sections}
    method, intro = by_title["2 Method"], by_title["1 Introduction"]
    assert 0 < intro.sentences_kept < intro.sentences_full
    assert method.sentences_kept > intro.sentences_kept  # twice the size, about twice the share
    assert by_title["Acknowledgements"].omitted
    assert by_title["Acknowledgements"].tokens_kept == 0 and "funder" not in text
    assert "## 2 Method" in text  # the heading line of a kept section
    assert any("left out: Acknowledgements" in n for n in info.notes)
    for n in (1, 2, 3):  # every equation kept whole
        assert f"$$ y_{n} = f(x_{n}) $$" in text
    assert not any("compete with sentences" in n for n in info.notes)


def test_equations_too_big_for_half_the_budget_compete_with_prose() -> None:
    paper = _long_paper(eq_terms=60)  # three ~150-token equations
    text, info = build_context(paper, 500)
    assert estimate_tokens(text) <= 500
    assert any("compete with sentences" in n for n in info.notes)
    assert sum(s.sentences_kept for s in info.sections) >= 3  # prose is not crowded out


def test_tiny_budget_drops_whole_sections_and_says_so() -> None:
    paper = _long_paper()
    text, info = build_context(paper, 20)
    assert estimate_tokens(text) <= 20
    assert any("budget too small" in n for n in info.notes)


def test_surrogate_pairs_from_pdfs_are_joined() -> None:
    from papermind.workflows.deep_reading.parts import clean_text

    assert clean_text("S (\ud835\udc46)") == "S (\U0001d446)"
    assert clean_text("lone \ud835 x") == "lone ? x"
    assert clean_text("plain") == "plain"
