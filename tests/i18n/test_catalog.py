from papermind.i18n import available_languages, translator
from papermind.i18n.checks import problems


def test_chinese_report_strings_come_from_the_catalogue():
    t = translator("reports", "zh")
    assert t("not found") == "未找到"
    assert t.n("{count} item", "{count} items", 3) == "3 项"


def test_english_and_missing_messages_fall_back_to_the_msgid():
    assert translator("reports", "en")("not found") == "not found"
    assert translator("reports", "zh")("No such message {x}", x=1) == "No such message 1"
    assert translator("reports", "en").n("{count} item", "{count} items", 1) == "1 item"
    assert translator("reports", "en").n("{count} item", "{count} items", 2) == "2 items"


def test_a_language_without_catalogue_is_english():
    t = translator("reports", "fr")
    assert t.language == "en" and t("not found") == "not found"


def test_available_languages_lists_the_catalogues():
    assert {"en", "zh"} <= set(available_languages("reports"))
    assert available_languages("no-such-domain") == ("en",)


def test_every_catalogue_is_readable_and_keeps_its_placeholders():
    assert problems() == []


def test_a_translation_with_a_foreign_placeholder_is_reported(tmp_path, monkeypatch):
    import papermind.i18n.checks as checks

    folder = tmp_path / "zh" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "x.po").write_text('msgid "{n} pages"\nmsgstr "{m} 页"\n', encoding="utf-8")
    monkeypatch.setattr(checks, "LOCALES", tmp_path)
    assert problems() == ["zh/x.po: '{n} pages': unknown placeholders ['m']"]
