"""Query enhancement and the deterministic search-mode rule."""

from __future__ import annotations

from papermind.workflows.deep_qa.query import choose_mode, expand, keywords, year_filter


def test_keywords_drop_stopwords_and_keep_quoted_phrases() -> None:
    words = keywords('How does "macro F1" on OLID compare with the BiLSTM results?')
    assert words[0] == "macro F1"
    assert "OLID" in words and "BiLSTM" in words and "results" in words
    assert "how" not in [w.lower() for w in words] and "the" not in words


def test_year_filters() -> None:
    assert (year_filter("papers since 2020").year_min, year_filter("since 2020").year_max) == (
        2020, None)
    assert year_filter("work after 2019").year_min == 2020
    assert year_filter("results before 2018").year_max == 2017
    between = year_filter("between 2021 and 2017")
    assert (between.year_min, between.year_max) == (2017, 2021)
    assert year_filter("recent methods", newest_year=2024).year_min == 2022
    assert year_filter("recent methods").year_min is None
    assert year_filter("what is BLEU").phrase == ""


def test_mode_rule_with_reasons() -> None:
    assert choose_mode("What does Table 3 report?").mode == "bm25"
    assert "number" in choose_mode("Which model gets 0.86 accuracy?").reason
    assert choose_mode("Why does back-translation help low-resource translation?").mode == "dense"
    hinted = choose_mode("which classifiers are compared", "dense")
    assert hinted.mode == "dense" and "hint" in hinted.reason
    assert choose_mode("which classifiers are compared").mode == "hybrid"
    assert choose_mode("Explain how OLID was annotated").mode == "hybrid"


def test_expand_appends_new_terms_only() -> None:
    assert expand("OLID size", ["olid", "tweets", "dataset size", " "]) == (
        "OLID size tweets dataset size")
