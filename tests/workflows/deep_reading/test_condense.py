"""The reader's context: full text when it fits, else the whole paper in parts that fit."""

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


def build_context(paper: Paper, budget: int) -> tuple[list[str], ContextInfo]:
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
    (text,), info = build_context(paper, 100_000)
    assert not info.condensed and info.context_tokens == info.paper_tokens
    assert text == ENGINE.numbered_text(paper) and "sentence 15 we discuss" in text
    assert "\n..." not in text


def test_a_paper_longer_than_the_budget_is_read_whole_in_parts() -> None:
    paper = _long_paper()
    full = _numbered(ENGINE.numbered_text(paper))
    texts, info = build_context(paper, 200)
    assert len(texts) > 2 and info.method == "sections" and not info.condensed
    assert all(estimate_tokens(t) <= 200 + 40 for t in texts)  # each part fits (ids aside)
    seen: dict[str, str] = {}
    for text in texts:
        seen.update(_numbered(text))
    assert all(full[i] == body for i, body in seen.items())  # verbatim, original ids
    thanks = {i for i, body in full.items() if "funder number" in body
              or "Acknowledgements" in body}
    assert thanks and not thanks & set(seen)  # acknowledgements are not read
    assert set(full) - thanks <= set(seen)  # every other line was read
    covered = {s.title: s for s in info.sections}
    assert covered["2 Method"].tokens_kept == covered["2 Method"].tokens_full > 0
    assert covered["Acknowledgements"].omitted
    assert "read section by section" in info.notes[0]
