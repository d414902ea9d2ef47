import pytest

from papermind.i18n import detect_language, script_counts


@pytest.mark.parametrize(("text", "language"), [
    ("这篇论文的主要贡献是什么？", "zh"),
    ("BERT 在 GLUE 上的结果如何？", "zh"),
    ("What does the paper claim about 注意力?", "en"),
    ("トランスフォーマーの貢献は何ですか", "ja"),
    ("이 논문의 기여는 무엇입니까", "ko"),
    ("Какой вклад статьи?", "ru"),
    ("What is the main contribution?", "en"),
])
def test_language_by_script(text, language):
    assert detect_language(text) == language


def test_text_without_letters_gets_the_default():
    assert detect_language("1234 ?!", default="zh") == "zh"
    assert detect_language("") == "en"


def test_scripts_are_counted_per_letter():
    counts = script_counts("AB 中文 3")
    assert counts["latin"] == 2 and counts["han"] == 2 and sum(counts.values()) == 4
