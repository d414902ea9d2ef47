"""Numbers in claims: is a stated number backed by one the text states, and which were
swapped for another where the claim restates the text word for word."""

from __future__ import annotations

import re

from papermind.grounding.edits import edits

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
    but says another number in the same place (a small edit next to an aligned stretch)."""
    found = []
    for edit in edits(claim, text):
        ours = [w for w in edit.ours if NUMERIC.fullmatch(w)]
        theirs = [w for w in edit.theirs if NUMERIC.fullmatch(w)]
        if len(ours) != len(theirs):
            continue
        found += [(a, b) for a, b in zip(ours, theirs, strict=True)
                  if comparable(a, b) and not number_supported(a, [b])
                  and not number_supported(b, [a])]
    return found


def comparable(a: str, b: str) -> bool:
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
