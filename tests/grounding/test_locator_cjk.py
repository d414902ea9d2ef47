"""The quote locator on Chinese text: characters are tokens, so quotes may start and end
anywhere in a run and cross line breaks; a changed character or digit is a difference."""

from papermind.grounding import QuoteLocator
from tests.grounding.paper_builder import page, paper

LINES = [
    "本人郑重声明:所呈交的学位论文,是本人在导师的指导下,独",
    "立进行研究工作所取得的成果。实验在 THUCNews 数据集上进行,",
    "模型的准确率达到 95.3%,比张三提出的基线方法提高了 2.1 个百",
    "分点。除文中已经注明引用的内容外,本论文不包含任何其他个人",
]


def _locator() -> QuoteLocator:
    return QuoteLocator(paper(page(1, LINES)))


def test_a_cross_line_quote_with_full_width_punctuation_is_found_clean():
    evidence = _locator().locate("在导师的指导下，独立进行研究工作所取得的成果。")
    assert evidence.found and evidence.support.by != "code"
    assert (evidence.anchor.page, evidence.anchor.line_start, evidence.anchor.line_end) == (1, 1, 2)
    assert evidence.matched_text == "在导师的指导下,独立进行研究工作所取得的成果"


def test_a_quote_starting_inside_a_run_is_found():
    evidence = _locator().locate("准确率达到95.3%")
    assert evidence.found and evidence.anchor.line_start == 3


def test_one_changed_character_in_a_name_or_a_digit_is_not_clean():
    for quote in ("比张四提出的基线方法提高了2.1个百分点", "比张三提出的基线方法提高了2.4个百分点",
                  "模型的准确率达到96.3%,比张三提出的基线方法"):
        evidence = _locator().locate(quote)
        assert not (evidence.found and evidence.support.by != "code"), quote
        assert evidence.reasons, quote
