"""Chinese heading forms: '第2章 方法', '第一节 背景', '一、引言', '（一）背景', '1.1 节标题', '§1. 引 言',
'附录 A 补充材料', and the unnumbered '摘要', '参考文献', '致谢'.

Only the text pattern lives here; whether the line is a heading at all (font, outline
numbering) is decided by the same checks as for English headings in ``sections``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from papermind.domain.paper import SectionKind
from papermind.i18n.scripts import CJK_LETTERS, has_cjk, squeeze_cjk_spaces
from papermind.ingest.layout import FlowLine
from papermind.ingest.outline import FontEvidence

if TYPE_CHECKING:
    from papermind.ingest.sections import Heading

_NUMERALS = {"〇": 0, "零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5,
             "六": 6, "七": 7, "八": 8, "九": 9}
_CN_NUMBER = "[一二三四五六七八九十]{1,3}"
_TITLE = rf"(?P<title>[{CJK_LETTERS}A-Za-z(\"“].*)"
_CHAPTER = re.compile(rf"^第\s*(?P<num>\d{{1,2}}|{_CN_NUMBER})\s*[章部篇]\s*{_TITLE}$")
_SECTION = re.compile(rf"^第\s*(?P<num>\d{{1,2}}|{_CN_NUMBER})\s*节\s*{_TITLE}$")
_ENUMERATED = re.compile(rf"^(?P<num>{_CN_NUMBER})\s*[、.．]\s*{_TITLE}$")
_PAREN = re.compile(rf"^[(（]\s*(?P<num>{_CN_NUMBER})\s*[)）]\s*{_TITLE}$")
_DIGITS = re.compile(
    rf"^(?:§\s*)?(?P<num>(?:\d{{1,2}}|[A-H](?=\.\d))(?:\.\d{{1,2}}){{0,3}})\.?\s*"
    rf"(?P<title>[{CJK_LETTERS}].*)$")
_APPENDIX = re.compile(rf"^附\s*录\s*(?P<num>[A-H])\s*{_TITLE}$")

UNNUMBERED: dict[str, SectionKind] = {
    "摘要": "abstract", "中文摘要": "abstract", "内容摘要": "abstract", "引言": "introduction",
    "前言": "introduction", "绪论": "introduction", "结论": "conclusion", "结束语": "conclusion",
    "参考文献": "references", "致谢": "acknowledgements", "附录": "appendix",
}
# substrings of a title; '摘要' is left out ('摘要的写法' is no abstract; UNNUMBERED has it)
KIND_WORDS: list[tuple[str, SectionKind]] = [
    ("引言", "introduction"), ("绪论", "introduction"),
    ("前言", "introduction"), ("相关工作", "related_work"), ("研究现状", "related_work"),
    ("方法", "method"), ("算法", "method"), ("模型", "method"), ("实验", "experiments"),
    ("结果", "results"), ("讨论", "discussion"), ("分析", "discussion"),
    ("结论", "conclusion"), ("总结", "conclusion"), ("展望", "conclusion"),
    ("参考文献", "references"), ("附录", "appendix"), ("致谢", "acknowledgements"),
]


@dataclass(frozen=True, slots=True)
class CjkHeading:
    """The parsed parts of a Chinese heading line (number as digits, e.g. '2' or '3.1')."""

    title: str
    number: str | None
    level: int
    chapter: bool = False  # '第2章' and '一、' forms: explicit top level


def chinese_number(text: str) -> int:
    """'十二' -> 12, '三' -> 3, '7' -> 7."""
    if text.isdigit():
        return int(text)
    if "十" not in text:
        return _NUMERALS[text[0]]
    tens, _, units = text.partition("十")
    return (_NUMERALS[tens] if tens else 1) * 10 + (_NUMERALS[units] if units else 0)


def parse_cjk_heading(text: str) -> CjkHeading | None:
    """The heading parts of ``text`` when it has a Chinese heading form, else None."""
    text = text.strip()
    if (match := _CHAPTER.match(text)) or (match := _ENUMERATED.match(text)):
        return CjkHeading(_title(match), str(chinese_number(match["num"])), 1, chapter=True)
    if (match := _PAREN.match(text)) or (match := _SECTION.match(text)):
        return CjkHeading(_title(match), None, 2)
    if match := _APPENDIX.match(text):
        return CjkHeading(_title(match), match["num"], 1)
    if match := _DIGITS.match(text):
        return CjkHeading(_title(match), match["num"], match["num"].count(".") + 1)
    return None


def unnumbered_kind(text: str) -> SectionKind | None:
    """The kind of an unnumbered Chinese heading ('摘 要' -> abstract), else None."""
    return UNNUMBERED.get(squeeze_cjk_spaces(text.strip().rstrip(":：")))


def _title(match: re.Match[str]) -> str:
    return squeeze_cjk_spaces(match["title"].strip()).rstrip("。.")


def heading_styled(line: FlowLine, evidence: FontEvidence) -> bool:
    """Set like a heading: emphasised, not smaller than body text (running heads are), and
    without table-of-contents leader dots."""
    small = line.box is not None and max(line.size, line.peak) < evidence.body_size - 0.5
    leaders = re.search(r"\.{4,}|…{2,}|·{4,}", line.text)
    return evidence.emphasised(line) and not small and not leaders


def style_twins(lines: Sequence[FlowLine], found: Sequence[Heading], body_size: float,
                shares_row: Callable[[int], bool]) -> list[tuple[int, str, int]]:
    """(index, title, level) of short Chinese lines set exactly like a numbered Chinese
    heading (same size and font, bigger than body text): '个人简历', '指导小组名单'.
    Unnumbered Chinese headings in ``found`` take their style's level in place ('参考文献'
    inside an appendix is a level-2 heading there)."""
    styles: dict[tuple[float, str], int] = {}
    for h in found:
        if h.number and has_cjk(h.title) and lines[h.index].box is not None:
            styles.setdefault(_style(lines[h.index]), h.level)
    for h in found:
        if h.number is None and has_cjk(h.title) and _style(lines[h.index]) in styles:
            h.level = styles[_style(lines[h.index])]
    taken = {h.index for h in found} | {i for h in found for i in h.extra}
    twins = []
    for i, line in enumerate(lines):
        level = styles.get(_style(line))
        text = squeeze_cjk_spaces(line.text.strip())
        if (level is None or i in taken or not line.starts_block or len(text) > 20
                or not has_cjk(text) or line.size <= body_size + 0.5
                or re.search(r"[,，。;；:：、.…]", text) or shares_row(i)):
            continue
        twins.append((i, text, level))
    return twins


def _style(line: FlowLine) -> tuple[float, str]:
    return round(line.size, 1), line.font
