"""Labels a model writes, read the same way in every language.

A model answering in Chinese may write '高' or '[可信度: 高]' for a credibility, '支持' for
a verdict, '7分' or '７/10' for a score. These functions map such text to the canonical
English values the code compares; None when nothing recognisable is there.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Literal

Level = Literal["high", "medium", "low"]
Verdict = Literal["supported", "contradicted", "not_enough"]

_LEVELS: tuple[tuple[str, Level], ...] = (
    ("medium", "medium"), ("moderate", "medium"), ("high", "high"), ("low", "low"),
    ("中等", "medium"), ("一般", "medium"), ("较高", "high"), ("较低", "low"), ("高", "high"),
    ("低", "low"), ("中", "medium"))
_VERDICTS: tuple[tuple[str, Verdict], ...] = (
    ("contradict", "contradicted"), ("refute", "contradicted"), ("not enough", "not_enough"),
    ("not_enough", "not_enough"), ("insufficient", "not_enough"), ("partial", "not_enough"),
    ("unsupported", "not_enough"), ("not support", "not_enough"), ("support", "supported"),
    ("矛盾", "contradicted"), ("相悖", "contradicted"), ("不一致", "contradicted"),
    ("反驳", "contradicted"), ("不足", "not_enough"), ("不充分", "not_enough"),
    ("不支持", "not_enough"), ("无法", "not_enough"), ("部分", "not_enough"),
    ("支持", "supported"), ("成立", "supported"))
_LABEL = re.compile(r"(?:credibility|可信度|可信程度|置信度)\s*[:：=]?\s*", re.IGNORECASE)
_CN_DIGITS = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
              "八": 8, "九": 9, "十": 10}


def _plain(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip().lower()


def parse_level(text: str) -> Level | None:
    """'high', 'Credibility: MEDIUM', '高', '[可信度: 高]', '可信度：较低' -> the level."""
    body = _plain(text).strip("[]【】()（） .。")
    label = _LABEL.search(body)
    if label:
        body = body[label.end():]
    body = body.strip("[]【】()（） .。")
    return next((level for word, level in _LEVELS if body.startswith(word)), None)


def parse_verdict(text: str) -> Verdict | None:
    """'Supported.', 'not enough', '支持', '不足以支持' -> the verdict (first match wins)."""
    body = _plain(text).replace("-", " ")
    if body.strip(" .!\"'。") in {"yes", "true", "是"}:
        return "supported"
    if body.strip(" .!\"'。") in {"no", "false", "否"}:
        return "not_enough"
    return next((verdict for word, verdict in _VERDICTS if word in body), None)


def parse_number(text: str) -> float | None:
    """The first number in '7', '7分', '７/10', '评分：8.5', '七分' (None when there is none)."""
    body = _plain(text)
    match = re.search(r"-?\d+(?:\.\d+)?", body)
    if match:
        return float(match.group())
    digits = [_CN_DIGITS[c] for c in body if c in _CN_DIGITS]
    if not digits:
        return None
    if len(digits) == 2 and digits[0] == 10:  # 十二
        return float(10 + digits[1])
    if len(digits) >= 2 and digits[1] == 10:  # 二十, 二十三
        return float(digits[0] * 10 + (digits[2] if len(digits) > 2 else 0))
    return float(digits[0])
