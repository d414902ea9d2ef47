"""Numbers in claims: is a stated number backed by one the text states, and which were
swapped for another where the claim restates the text word for word."""

from __future__ import annotations

import re
from difflib import SequenceMatcher

NUMERIC = re.compile(r"-?\d+(?:[.,]\d+)*%?")


def number_supported(number: str, have: list[str]) -> bool:
    """True when ``number`` equals one of ``have`` (a percentage may be a fraction, a number
    with two or more significant digits may be a rounding of a more precise one)."""
    value, decimals = _value(number)
    if value is None:  # '4.2.2', '1.3.1': a label or version, compared as written
        return number in have
    percent = number.endswith("%")
    for other in have:
        v, _ = _value(other)
        if v is None:
            continue
        candidates = [v, v * 100] if percent and not other.endswith("%") else [v]
        if other.endswith("%") and not percent:
            candidates.append(v / 100)
        for c in candidates:
            if abs(c - value) < 1e-9:
                return True
            if _significant(number) >= 2 and abs(round(c, decimals) - value) < 1e-9:
                return True
    return False


def swapped_numbers(claim: list[str], text: list[str]) -> list[tuple[str, str]]:
    """(claim number, text number) pairs where the claim restates ``text`` (comparison keys)
    but says another number in the same place (next to at least one aligned stretch)."""
    found = []
    ops = SequenceMatcher(None, claim, text, autojunk=False).get_opcodes()
    for i, (tag, a0, a1, b0, b1) in enumerate(ops):
        before = i > 0 and ops[i - 1][0] == "equal"
        after = i < len(ops) - 1 and ops[i + 1][0] == "equal"
        if tag != "replace" or not (before or after):
            continue
        ours = [w for w in claim[a0:a1] if NUMERIC.fullmatch(w)]
        theirs = [w for w in text[b0:b1] if NUMERIC.fullmatch(w)]
        if len(ours) != len(theirs):
            continue
        found += [(a, b) for a, b in zip(ours, theirs, strict=True)
                  if _comparable(a, b) and not number_supported(a, [b])
                  and not number_supported(b, [a])]
    return found


def _comparable(a: str, b: str) -> bool:
    """Two values, or two labels ('4.2.2'); a label next to a value ('12.0.3': a number with
    a footnote mark) is not a swap."""
    return (_value(a)[0] is None) == (_value(b)[0] is None)


def _value(number: str) -> tuple[float | None, int]:
    digits = number.rstrip("%").replace(",", ".")
    try:
        value = float(digits)
    except ValueError:
        return None, 0
    mantissa = digits.lower().split("e", 1)[0]
    decimals = len(mantissa.split(".", 1)[1]) if "." in mantissa else 0
    return value, decimals


def _significant(number: str) -> int:
    return len(number.strip("-%").replace(".", "").replace(",", "").lstrip("0"))
