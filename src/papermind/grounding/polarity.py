"""Negation and comparison direction of a claim against the cited text.

The claim's words are aligned to the cited text's (comparison keys, longest common
stretches first: ``difflib``).

- An edit between two aligned stretches that adds or drops a negation ('is' -> 'is not',
  'can' -> 'cannot') or swaps a comparison word for its opposite ('outperforms' ->
  'underperforms', 'higher' -> 'lower') *contradicts* the text.
- Looser: over the stretch of text the claim aligns to, the claim has a different number of
  negations, or a comparison word whose opposite (and not itself) is there: *not enough*
  (code cannot tell a paraphrase from a flip, so it only says the text does not show it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher

NEGATIONS = frozenset({
    "not", "no", "never", "none", "nor", "neither", "cannot", "without", "nothing", "nobody",
    "dont", "doesnt", "didnt", "isnt", "arent", "wasnt", "werent", "cant", "couldnt", "wont",
    "wouldnt", "shouldnt", "hasnt", "havent", "hadnt", "mustnt", "unable", "fails", "fail",
    "failed", "lacks", "lack",
})
# (axis, sign) of comparison words: stems matched at a word start, longest first
_DIRECTION_STEMS: dict[str, tuple[str, int]] = {
    "outperform": ("perform", 1), "underperform": ("perform", -1),
    "surpass": ("perform", 1), "beat": ("perform", 1), "trail": ("perform", -1),
    "better": ("good", 1), "worse": ("good", -1), "best": ("good", 1), "worst": ("good", -1),
    "superior": ("good", 1), "inferior": ("good", -1),
    "higher": ("high", 1), "lower": ("high", -1), "highest": ("high", 1), "lowest": ("high", -1),
    "increas": ("increase", 1), "decreas": ("increase", -1), "reduc": ("increase", -1),
    "improv": ("improve", 1), "degrad": ("improve", -1), "worsen": ("improve", -1),
    "hurt": ("improve", -1), "harm": ("improve", -1),
    "more": ("more", 1), "less": ("more", -1), "fewer": ("more", -1),
    "larger": ("large", 1), "smaller": ("large", -1), "largest": ("large", 1),
    "smallest": ("large", -1), "bigger": ("large", 1),
    "faster": ("fast", 1), "slower": ("fast", -1), "fastest": ("fast", 1), "slowest": ("fast", -1),
    "above": ("above", 1), "below": ("above", -1),
    "stronger": ("strong", 1), "weaker": ("strong", -1),
    "longer": ("long", 1), "shorter": ("long", -1),
    "maximiz": ("max", 1), "minimiz": ("max", -1), "maximum": ("max", 1), "minimum": ("max", -1),
    "easier": ("easy", 1), "harder": ("easy", -1),
    "gain": ("gain", 1), "drop": ("gain", -1),
    "exceed": ("perform", 1), "greater": ("large", 1), "positive": ("sign", 1),
    "negative": ("sign", -1), "boost": ("improve", 1), "enhanc": ("improve", 1),
    "help": ("improve", 1), "rais": ("increase", 1), "accelerat": ("fast", 1),
    "slow": ("fast", -1),
}
_CHANGE_AXES = frozenset({"perform", "good", "increase", "improve", "gain", "high"})
REGION_SLACK = 3
"""Words either side of the aligned stretch that still count as what the claim restates."""
_STEM = re.compile("|".join(sorted(map(re.escape, _DIRECTION_STEMS), key=len, reverse=True)))
_NOT_COMPARISON = frozenset({"beatles", "morel", "harmonic", "harmony", "dropout", "lessons",
                             "lesson", "trailing"})


@dataclass(frozen=True, slots=True)
class PolarityIssue:
    """A negation or direction mismatch: the reason, and whether it contradicts the text."""

    reason: str
    contradicts: bool


def direction(word: str) -> tuple[str, int] | None:
    """(axis, sign) of a comparison word key, or None ('lower' -> ('high', -1))."""
    if word in _NOT_COMPARISON:
        return None
    match = _STEM.match(word)
    if match is None:
        return None
    stem = match.group()
    rest = word[len(stem):]
    if len(rest) > 4 or (stem in {"more", "less", "best", "beat", "gain", "drop", "harm", "hurt",
                                  "trail", "above", "below", "lower", "higher", "help", "slow", "rais"}
                         and rest not in {"", "s", "ed", "ing", "er", "en", "ens", "ened", "e",
                                          "es", "ly"}):
        return None
    return _DIRECTION_STEMS[stem]


def polarity_issues(claim: list[str], text: list[str]) -> list[PolarityIssue]:
    """Negation and direction mismatches of ``claim`` against ``text`` (comparison keys)."""
    ops = SequenceMatcher(None, claim, text, autojunk=False).get_opcodes()
    equal = [i for i, op in enumerate(ops) if op[0] == "equal"]
    if not equal:
        return []
    issues: list[PolarityIssue] = []
    for i, (tag, a0, a1, b0, b1) in enumerate(ops):
        before = i > 0 and ops[i - 1][0] == "equal"
        after = i < len(ops) - 1 and ops[i + 1][0] == "equal"
        # a word replaced next to an aligned stretch; words added or left out between two
        if (tag == "replace" and (before or after)) or (tag != "equal" and before and after):
            issues += _edit_issues(claim[a0:a1], text[b0:b1])
    if issues:
        return issues
    lo = max(0, ops[equal[0]][3] - REGION_SLACK)
    hi = ops[equal[-1]][4] + REGION_SLACK
    return _region_issues(claim, text[lo:hi])


def _edit_issues(ours: list[str], theirs: list[str]) -> list[PolarityIssue]:
    issues = []
    if _negations(ours) != _negations(theirs):
        added = _negations(ours) > _negations(theirs)
        issues.append(PolarityIssue(
            f"the claim {'adds' if added else 'drops'} a negation: it says "
            f"'{_around(ours)}' where the cited text says '{_around(theirs)}'", True))
    for a in ours:
        for b in theirs:
            da, db = direction(a), direction(b)
            if da and db and _coarse(da)[0] == _coarse(db)[0] and da[1] != db[1]:
                issues.append(PolarityIssue(
                    f"the claim says '{a}' where the cited text says '{b}' (opposite direction)",
                    True))
    return issues


def _region_issues(claim: list[str], region: list[str]) -> list[PolarityIssue]:
    issues = []
    if _negations(claim) != _negations(region):
        issues.append(PolarityIssue(
            "the claim and the cited text differ in negation "
            f"({_negations(claim)} vs {_negations(region)} negating words)", False))
    have = {_coarse(d) for d in map(direction, region) if d}
    for word in dict.fromkeys(claim):
        d = direction(word)
        if d and _coarse(d) not in have and (_coarse(d)[0], -d[1]) in have:
            issues.append(PolarityIssue(
                f"the claim says '{word}' but the cited text states the opposite direction",
                False))
    return issues


def _around(words: list[str], width: int = 3) -> str:
    """The words of an edit around its first negating or comparison word (all when short)."""
    if len(words) <= 2 * width + 1:
        return " ".join(words) or "-"
    at = next((i for i, w in enumerate(words) if w in NEGATIONS or direction(w)), 0)
    lo, hi = max(0, at - width), min(len(words), at + width + 1)
    return ("... " if lo else "") + " ".join(words[lo:hi]) + (" ..." if hi < len(words) else "")


def _coarse(d: tuple[str, int]) -> tuple[str, int]:
    """Axes that all say 'gets better / goes up' count as one when comparing loosely."""
    return ("change", d[1]) if d[0] in _CHANGE_AXES else d


def _negations(words: list[str]) -> int:
    return sum(w in NEGATIONS for w in words)
