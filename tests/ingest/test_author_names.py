"""Author lines: clean names, their affiliation markers kept apart."""

from __future__ import annotations

import pytest

from papermind.ingest.author_names import (
    compose_accents,
    has_marked_name,
    looks_like_name,
    split_marked_names,
    starts_with_number_mark,
)
from papermind.ingest.metadata import split_authors


def _pairs(text: str) -> list[tuple[str, list[str]]]:
    return [(a.name, a.marks) for a in split_authors(text)]


def test_symbol_markers_glued_or_apart_leave_the_names() -> None:
    assert _pairs("Kalpesh Krishna♠ ∗ Erin Bransom♢ ∗ Bailey Kuehl♢ Mohit Iyyer♠") == [
        ("Kalpesh Krishna", ["♠", "∗"]), ("Erin Bransom", ["♢", "∗"]),
        ("Bailey Kuehl", ["♢"]), ("Mohit Iyyer", ["♠"])]


def test_digit_markers_spaced_by_a_converter_split_the_names() -> None:
    assert _pairs("Peng Xue 1 , 2 , 6 Wei Fang 3 ∗ Zhengyu Ma 1 Timothée Masquelier 5") == [
        ("Peng Xue", ["1", "2", "6"]), ("Wei Fang", ["3", "∗"]), ("Zhengyu Ma", ["1"]),
        ("Timothée Masquelier", ["5"])]


def test_greek_and_glued_digit_markers() -> None:
    assert _pairs("Kyle Loα, Lauren Yu♦ and Sam Wang1,2") == [
        ("Kyle Lo", ["α"]), ("Lauren Yu", ["♦"]), ("Sam Wang", ["1", "2"])]


def test_a_letter_read_from_an_icon_after_markers_is_no_name() -> None:
    assert _pairs("Zecheng Wang 1,2* , Chunshan Li 1 B , Yupeng Zhang 2*") == [
        ("Zecheng Wang", ["1", "2", "*"]), ("Chunshan Li", ["1"]), ("Yupeng Zhang", ["2", "*"])]


def test_a_repeated_number_starts_the_affiliation_list() -> None:
    names = [a.name for a in split_marked_names("Eric P. Xing 2 Hao Zhang 1 1 UC San Diego 2 MBZUAI")]
    assert names == ["Eric P. Xing", "Hao Zhang"]


def test_acronyms_emails_and_headings_are_not_names() -> None:
    assert [a.name for a in split_authors("Yoonho Lee KAIST")] == ["Yoonho Lee"]
    assert [a.name for a in split_authors("Takayuki Osogami IBM Research - Tokyo osogami@jp.ibm.com")] == [
        "Takayuki Osogami"]
    assert [a.name for a in split_authors("Chris QUIRK, William DOLAN")] == ["Chris QUIRK", "William DOLAN"]
    assert split_authors("Abstract") == [] and split_authors("Carnegie Mellon University") == []
    assert split_authors("Thesis Supervisor:") == []


def test_spacing_accents_of_a_converter_are_composed() -> None:
    assert compose_accents("Andr´ es Guzm´ an-Cordero") == "Andrés Guzmán-Cordero"
    assert [a.name for a in split_authors("Andr´ es Guzm´ an-Cordero")] == ["Andrés Guzmán-Cordero"]


@pytest.mark.parametrize(("text", "marked"), [
    ("Kalpesh Krishna♠ ∗ Erin Bransom♢", True), ("Arman Cohan†∗ Sergey Feldman†", True),
    ("Evaluating Long-Form Summarization", False), ("Deep Learning for 3D Scenes", False),
    ("Sparse Models of Order 2", False)])
def test_a_marked_name_is_told_from_a_title_line(text: str, marked: bool) -> None:
    assert has_marked_name(text) is marked


def test_name_shape_and_number_led_affiliations() -> None:
    assert looks_like_name("Madeleine van Zuylen") and not looks_like_name("Related Work:")
    assert not looks_like_name("order to compute the score")
    assert starts_with_number_mark("1 Michigan State University")
    assert starts_with_number_mark("2Amazon AGI") and not starts_with_number_mark("3D Gaussian Splats")
