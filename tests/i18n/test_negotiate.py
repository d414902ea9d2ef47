import pytest

from papermind.i18n import (
    LanguageError,
    language_name,
    negotiate,
    normalize_language,
    parse_accept_language,
)


def test_accept_language_is_ordered_by_quality_and_reduced_to_languages():
    header = "en;q=0.5, zh-CN, zh;q=0.9, fr;q=0, *;q=0.1"
    assert parse_accept_language(header) == ["zh", "en"]
    assert parse_accept_language(None) == []
    assert parse_accept_language("en;q=abc, de") == ["de"]


def test_setting_wins_then_header_then_english():
    assert negotiate("zh", "en") == "zh"
    assert negotiate("auto", "fr, zh-CN;q=0.8", domain="reports") == "zh"
    assert negotiate("auto", "fr", domain="reports") == "en"
    assert negotiate(None, None) == "en"
    assert negotiate("auto", "de", supported=("en", "de")) == "de"


def test_codes_are_normalised_and_nonsense_is_refused():
    assert normalize_language("zh-CN") == "zh"
    assert normalize_language("zh_Hans") == "zh"
    assert normalize_language("AUTO") == "auto"
    with pytest.raises(LanguageError, match="not a language code"):
        normalize_language("chinese please")
    with pytest.raises(LanguageError, match="unknown language"):
        normalize_language("qq")


def test_language_names_carry_the_native_name():
    assert language_name("zh") == "Chinese (中文)"
    assert language_name("en") == "English"
