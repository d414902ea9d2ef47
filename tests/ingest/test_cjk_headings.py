import pytest

from papermind.ingest.cjk_headings import chinese_number, parse_cjk_heading, unnumbered_kind


@pytest.mark.parametrize(("text", "title", "number", "level"), [
    ("第2章 方法", "方法", "2", 1),
    ("第 12 章 结论与展望", "结论与展望", "12", 1),
    ("第三章 实验", "实验", "3", 1),
    ("一、引言", "引言", "1", 1),
    ("十二、总结", "总结", "12", 1),
    ("（二）数据集", "数据集", None, 2),
    ("第一节 研究背景", "研究背景", None, 2),
    ("1 引言", "引言", "1", 1),
    ("1.1 节标题", "节标题", "1.1", 2),
    ("3.2.1 注意力机制", "注意力机制", "3.2.1", 3),
    ("§1. 引 言", "引言", "1", 1),
    ("附录 A 补充材料", "补充材料", "A", 1),
    ("A.1 插图", "插图", "A.1", 2),
])
def test_chinese_heading_forms(text, title, number, level):
    parsed = parse_cjk_heading(text)
    assert parsed is not None
    assert (parsed.title, parsed.number, parsed.level) == (title, number, level)


@pytest.mark.parametrize("text", ["2002 年获得学士学位", "本文提出了一种方法", "Introduction"])
def test_body_text_is_no_heading_form(text):
    assert parse_cjk_heading(text) is None


def test_unnumbered_headings_and_numerals():
    assert unnumbered_kind("参考文献") == "references"
    assert unnumbered_kind("摘 要") == "abstract"
    assert unnumbered_kind("致谢") == "acknowledgements"
    assert unnumbered_kind("摘要的写法") is None
    assert [chinese_number(t) for t in ("三", "十", "十二", "二十", "二十三", "7")] == [3, 10, 12, 20, 23, 7]
