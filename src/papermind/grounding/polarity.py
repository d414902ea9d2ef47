"""Negation and comparison direction of a claim against the cited text.

A claim sentence's words are aligned to those of the cited sentences it restates
(``restating``; comparison keys, longest common stretches first: ``difflib``).

- A small edit next to aligned stretches that adds or drops a negation ('is' -> 'is not',
  'can' -> 'cannot') or swaps a comparison word for its opposite ('outperforms' ->
  'underperforms', 'higher' -> 'lower') *contradicts* the text.
  Only an edit that changes little else counts; 'without X' for 'removing X' is no flip.
- Looser: over the stretch of text the claim aligns to, the claim has a different number of
  negations (when it restates that stretch nearly word for word), or a comparison word whose
  opposite (and not itself) is there: *not enough*
  (code cannot tell a paraphrase from a flip, so it only says the text does not show it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher

from papermind.grounding.edits import Edit, edits, matched_share

NEGATIONS = frozenset({
    "not", "no", "never", "none", "neither", "cannot", "without", "nothing", "nobody",
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
NEAR_VERBATIM = 0.8
"""Share of claim words aligned verbatim before a negation count over the stretch counts."""
ABSENCE = frozenset({"wo", "removing", "removed", "remove", "excluding", "excluded", "ablating",
                     "ablated", "minus", "dropping", "dropped", "omitting", "omitted"})
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
    """Negation and direction mismatches of ``claim`` against ``text`` (comparison keys of a
    claim sentence and the cited stretch it restates: ``restating``)."""
    ops = SequenceMatcher(None, claim, text, autojunk=False).get_opcodes()
    equal = [op for op in ops if op[0] == "equal"]
    if not equal:
        return []
    issues = [issue for edit in edits(claim, text) for issue in _edit_issues(edit)]
    if issues:
        return issues
    lo = max(0, equal[0][3] - REGION_SLACK)
    hi = equal[-1][4] + REGION_SLACK
    return _region_issues(claim, text[lo:hi], matched_share(claim, text) >= NEAR_VERBATIM)


def _edit_issues(edit: Edit) -> list[PolarityIssue]:
    """A negation added or dropped, or a comparison word swapped, where little else changed
    (a paraphrase that rewords a negation is not compared)."""
    ours, theirs = edit.ours, edit.theirs
    issues = []
    rest = [w for w in ours if w not in NEGATIONS], [w for w in theirs if w not in NEGATIONS]
    flipped = _negations(ours) != _negations(theirs) and max(map(len, rest)) <= 2
    if flipped and not _ablation(ours, theirs):
        added = _negations(ours) > _negations(theirs)
        issues.append(PolarityIssue(
            f"the claim {'adds' if added else 'drops'} a negation: it says "
            f"'{edit.shown(ours)}' where the cited text says '{edit.shown(theirs)}'", True))
    if max(len(ours), len(theirs)) > 2:
        return issues
    for a in ours:
        for b in theirs:
            da, db = direction(a), direction(b)
            if da and db and _coarse(da)[0] == _coarse(db)[0] and da[1] != db[1]:
                issues.append(PolarityIssue(
                    f"the claim says '{a}' where the cited text says '{b}' (opposite direction)",
                    True))
    return issues


def _ablation(ours: list[str], theirs: list[str]) -> bool:
    """'without X' against 'removing X', 'w/o X', 'minus X': the same ablation."""
    return any(w in ABSENCE for w in ours + theirs) and ("without" in ours) != ("without" in theirs)


def _region_issues(claim: list[str], region: list[str], verbatim: bool) -> list[PolarityIssue]:
    issues = []
    if verbatim and _negations(claim) != _negations(region) and not _ablation(claim, region):
        issues.append(PolarityIssue(
            f"the claim says '{_around(claim)}' where the cited text says '{_around(region)}' "
            "(a negation differs)", False))
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
