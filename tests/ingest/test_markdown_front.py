"""Markdown front matter: the title heading after line-number runs, author headings that
are names, section names that are never authors."""

from __future__ import annotations

import json
from pathlib import Path

from papermind.ingest import parse_bytes

GOLD = Path(__file__).resolve().parents[2] / "bench" / "front_matter_gold.json"

CONVERTED = """22

23

24

## Evaluating Summaries at Length

## Ada Lovelace ∗

Analytical Engine Institute ada@example.org

Charles Babbage 1 , 2 , Mary Somerville 2 †

1 University of Somewhere 2 Difference Labs

## Abstract

We study how long summaries are judged by readers and models alike in this work.

## 1 Introduction

Long summaries are hard to judge.
"""


def _md(text: str, name: str = "paper.md"):  # type: ignore[no-untyped-def]
    return parse_bytes(text.encode(), name)


def test_a_title_after_line_numbers_and_author_headings_that_are_names() -> None:
    paper = _md(CONVERTED)
    assert paper.title == "Evaluating Summaries at Length" and paper.title_source == "heading"
    assert paper.authors == ["Ada Lovelace", "Charles Babbage", "Mary Somerville"]
    assert paper.author_marks == [["∗"], ["1", "2"], ["2", "†"]]
    assert paper.abstract.startswith("We study how long summaries")
    assert [s.title for s in paper.sections] == ["Abstract", "Introduction"]


def test_abstract_and_numbered_sections_are_never_authors() -> None:
    paper = _md("## A Study of Things\n\nJane Roe\n\n## Abstract\n\nText of the abstract here.\n\n"
                "## 2 Method\n\nBody.\n")
    assert paper.authors == ["Jane Roe"]
    assert not any(a.lstrip("#").strip() in ("Abstract", "2 Method") for a in paper.authors)


def test_a_title_that_starts_with_a_capital_a_is_no_section() -> None:
    paper = _md("# A Statistical Semantic Parser\n\nRuifang Ge, Raymond J. Mooney\n\n## Abstract\n\nx\n")
    assert paper.title == "A Statistical Semantic Parser"
    assert paper.authors == ["Ruifang Ge", "Raymond J. Mooney"]


def test_without_a_title_heading_the_first_line_is_a_guess() -> None:
    paper = _md("Notes on retrieval models\n\nSome plain text that follows the first line here.\n")
    assert paper.title == "Notes on retrieval models" and paper.title_source == "first_line"
    assert paper.title_guessed


def test_only_section_headings_fall_back_to_the_file_name() -> None:
    paper = _md("## Abstract\n\nWe study things.\n\n## 1 Introduction\n\nBody text.\n", "draft_v2.md")
    assert paper.title == "draft v2" and paper.title_source == "file_name"


def test_shared_converted_papers_match_the_recorded_front_matter(shared_data: Path) -> None:
    gold = json.loads(GOLD.read_text(encoding="utf-8"))
    exact = authors_ok = 0
    files = sorted((shared_data / "neurips_md").glob("*.md"))
    for path in files:
        text = path.read_text(encoding="utf-8")
        for variant in (text, "\n\n".join(str(n) for n in range(1, 23)) + "\n\n" + text):
            paper = parse_bytes(variant.encode(), path.name)
            rel = f"neurips_md/{path.name}"
            exact += paper.title == gold["titles"][rel] and paper.title_source == "heading"
            authors_ok += paper.authors == gold["authors"][rel]
            assert paper.abstract, path.name
            assert not any(a.startswith("#") or a.lower() == "abstract" for a in paper.authors)
    assert exact == 2 * len(files) == 40
    assert authors_ok >= 2 * (len(files) - 2)  # two papers run a name into its affiliation


def test_zero_led_margin_numbers_glued_to_lines_are_not_title_or_names() -> None:
    paper = _md("000\n\n001\n\n## 002 Evaluating Things at Scale\n\n003 Jane Roe 1 , Max Mustermann 2"
                "\n\n004 1 Example University 2 Sample Institute\n\n## Abstract\n\nWe study it.\n")
    assert paper.title == "Evaluating Things at Scale"
    assert paper.authors == ["Jane Roe", "Max Mustermann"] and paper.author_marks == [["1"], ["2"]]


def test_a_title_split_over_two_headings_is_joined_only_when_it_runs_on() -> None:
    split = _md("## Fast Adversarial Training against\n\n## l 0 Bounded Perturbations\n\n"
                "## Xuyang Zhong\n\n## Abstract\n\nx\n")
    assert split.title == "Fast Adversarial Training against l 0 Bounded Perturbations"
    assert split.authors == ["Xuyang Zhong"]
    colon = _md("## Towards Robust Models:\n\n## A Study of Everything\n\nJane Roe\n\n## Abstract\n\nx\n")
    assert colon.title == "Towards Robust Models: A Study of Everything"
    named = _md("## Towards Robust Models:\n\n## Jane Roe\n\n## Abstract\n\nx\n")
    assert named.title == "Towards Robust Models:" and named.authors == ["Jane Roe"]
    whole = _md("## A Full Title Here\n\n## Overview\n\nbody\n")
    assert whole.title == "A Full Title Here" and [s.title for s in whole.sections] == ["Overview"]
