import pytest

from papermind.i18n.labels import parse_level, parse_number, parse_verdict


@pytest.mark.parametrize(("text", "level"), [
    ("high", "high"), ("HIGH", "high"), ("Credibility: medium", "medium"),
    ("[可信度: 高]", "high"), ("【可信度：低】", "low"), ("可信度：中等", "medium"),
    ("高", "high"), ("较低", "low"), ("unclear", None), ("", None),
])
def test_credibility_lines_in_english_and_chinese(text, level):
    assert parse_level(text) == level


@pytest.mark.parametrize(("text", "verdict"), [
    ("Supported.", "supported"), ("not enough", "not_enough"), ("contradicted", "contradicted"),
    ("支持", "supported"), ("不支持", "not_enough"), ("证据不足", "not_enough"),
    ("与原文矛盾", "contradicted"), ("是", "supported"), ("maybe", None),
])
def test_verdicts_in_english_and_chinese(text, verdict):
    assert parse_verdict(text) == verdict


@pytest.mark.parametrize(("text", "number"), [
    ("7", 7.0), ("7分", 7.0), ("７/10", 7.0), ("评分：8.5", 8.5), ("七分", 7.0), ("十二", 12.0),
    ("二十三", 23.0), ("none", None),
])
def test_scores_in_any_form(text, number):
    assert parse_number(text) == number

