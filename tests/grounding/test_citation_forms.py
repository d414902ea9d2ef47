"""Which unresolved author-year markers name people (paper_check.citation_forms)."""

from __future__ import annotations

import pytest

from papermind.grounding.paper_check.citation_forms import (
    labels_an_item,
    names_of,
    names_people,
    plausible_surname,
)


@pytest.mark.parametrize("marker", [
    "Smith et al. (2020)", "(Smith and Lee, 2020; Wu, 2019a)", "van der Berg et al. (2019)",
    "(Caballero-Gaudes, 2017)", "(Klein &amp; Noé, 2024)", "LeCun et al. (2015)",
    "McDonald (2019)", "(O’Neil, 2016)", "Müller (2020)", "MacKay (2003)", "（张三等, 2020）",
])
def test_markers_that_name_people(marker: str) -> None:
    assert names_people(marker)


@pytest.mark.parametrize("marker", [
    "PubMed (2018)", "BERTScore-DB-XL (2020)", "ELMo (2018)", "Algorithms (2000)",
    "(OpenSubtitles2012, en-it)", "GPT-3 (2020)", "T5 (2020)", "DeBERTa (2021)", "BERT (2019)",
    "Wikipedia (2020)", "(May 2020)", "Table (2019)",
])
def test_markers_that_name_data_systems_venues_or_dates(marker: str) -> None:
    assert not names_people(marker)


def test_names_of_a_marker_skip_joining_words_and_years() -> None:
    assert names_of("(Smith et al., 2020; Lee and Park, 2019a)") == ["Smith", "Lee", "Park"]
    assert names_of("van der Berg et al. (2019)") == ["Berg"]
    assert not plausible_surname("") and plausible_surname("Caballero-Gaudes")


def test_a_one_name_marker_that_labels_a_list_item_or_a_cell() -> None:
    assert labels_an_item("Transformer (2017)", "- Transformer (2017): the base model")
    assert labels_an_item("Transformer (2017)", "Transformer (2017) 81.2")
    assert not labels_an_item("Smith (2017)", "as Smith (2017) showed for the first time here")
    assert not labels_an_item("Smith et al. (2017)", "- Smith et al. (2017)")
    assert not labels_an_item("(Smith, 2017)", "(Smith, 2017)")


def test_a_one_name_marker_ending_a_proper_name_inside_a_sentence() -> None:
    assert labels_an_item("Treebank (1993)", "we train on the Penn Treebank (1993) for all runs")
    assert labels_an_item("Algorithms (2000)", "at the Symposium on Discrete Algorithms (2000) and")
    assert not labels_an_item("Smith (2020)", "Following Smith (2020), we train the model on data")
    assert not labels_an_item("Smith (2020)", "the work. Following Smith (2020), we train it again")
