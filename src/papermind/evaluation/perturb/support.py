"""Claims built by rule from real lines, citing those lines: to measure the code support
checks (bench/support_checks.py and a real-paper test).

For a prose line of the body, the claim is the line itself (``unchanged``: must not be
lowered to contradicted), its middle three fifths (``excerpt``: should not be lowered), or
the line with one number changed, a foreign dataset name put
in place of a name (or added), its negation flipped, or a comparison word swapped for its
opposite (each must not be ``supported``). The edits are written here, independently of the
checks: the swap table holds words the checks' lexicon does not know.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from papermind.domain import Line, Paper
from papermind.evaluation.perturb.edits import change_number
from papermind.evaluation.perturb.quotes import Body, Built
from papermind.grounding.text import compact

KINDS = ("unchanged", "excerpt", "number", "name_replaced", "name_added", "negation", "direction")
FOREIGN = ("ImageNet", "CIFAR-100", "MNIST", "SQuAD", "GLUE", "MS-COCO", "WikiText-103",
           "CoNLL-2003", "LibriSpeech", "Cityscapes", "KITTI", "SNLI", "MultiNLI", "IMDb",
           "HotpotQA", "TriviaQA", "OntoNotes", "Penn Treebank", "Switchboard", "Europarl",
           "Gigaword", "SST-2", "PubMedQA", "Omniglot")
_SWAPS = {
    "outperforms": "underperforms", "outperform": "underperform", "outperformed": "underperformed",
    "higher": "lower", "better": "worse", "best": "worst", "improves": "degrades",
    "improve": "degrade", "improved": "degraded", "improving": "degrading",
    "increases": "decreases", "increase": "decrease", "increased": "decreased",
    "more": "less", "larger": "smaller", "faster": "slower", "above": "below",
    "superior": "inferior", "highest": "lowest", "stronger": "weaker", "maximize": "minimize",
    "exceeds": "trails", "surpasses": "trails", "boosts": "hurts", "helps": "hurts",
    "raises": "lowers", "enhances": "degrades", "accelerates": "slows", "gains": "losses",
    "easier": "harder", "longer": "shorter", "greater": "smaller", "positive": "negative",
}
_SWAPS.update({v: k for k, v in list(_SWAPS.items()) if v not in _SWAPS})
_AUXILIARIES = ("is", "are", "was", "were", "can", "could", "does", "do", "did", "will",
                "would", "should", "may", "might", "must", "has", "have", "had")
_NEGATED = {"not": "", "never": "", "cannot": "can", "can't": "can", "don't": "do",
            "doesn't": "does", "didn't": "did", "isn't": "is", "aren't": "are", "won't": "will",
            "wasn't": "was", "weren't": "were"}
_NAME = re.compile(r"^[A-Za-z][\w\-]*(?:[A-Z][\w\-]*|\d[\w\-]*)$")
_PROSE = re.compile(r"[A-Za-z][a-z]+[,.;:]?")


@dataclass(frozen=True)
class SupportCase(Built):
    """A claim citing one real line (``cited``), of one ``kind``."""

    cited: str
    """The cited line's address, 'page:line'."""
    claim: str
    line: str


def support_cases(name: str, paper: Paper, rng: random.Random, per_kind: int) -> list[SupportCase]:
    """Up to ``per_kind`` claims of every kind, from prose lines of the paper's body."""
    known = compact(" ".join(line.text for line in paper.lines()))
    foreign = [f for f in FOREIGN if compact(f) not in known]
    made: dict[str, int] = dict.fromkeys(KINDS, 0)
    cases: list[SupportCase] = []
    lines = [line for line in Body(name, paper).lines if _prose(line)]
    for line in rng.sample(lines, len(lines)):
        for kind, claim in _claims(line.text.split(), rng, foreign):
            if claim and made[kind] < per_kind and claim != line.text:
                made[kind] += 1
                cases.append(SupportCase(name, kind, f"{line.page}:{line.n}", claim, line.text))
        unchanged = made["unchanged"] < per_kind
        if unchanged:
            made["unchanged"] += 1
            cases.append(SupportCase(name, "unchanged", f"{line.page}:{line.n}", line.text,
                                     line.text))
        if min(made.values()) >= per_kind:
            break
    return cases


def _prose(line: Line) -> bool:
    words = line.text.split()
    return len(words) >= 8 and sum(bool(_PROSE.fullmatch(w)) for w in words) >= 0.6 * len(words)


def _claims(words: list[str], rng: random.Random,
            foreign: list[str]) -> list[tuple[str, str | None]]:
    cut = max(1, len(words) // 5)
    return [("excerpt", " ".join(words[cut:len(words) - cut])),
            ("number", change_number(words, rng, measured_only=True)),
            ("name_replaced", _replace_name(words, rng, foreign)),
            ("name_added", f"{' '.join(words).rstrip('.,;:')} on {rng.choice(foreign)}"
             if foreign else None),
            ("negation", _flip_negation(words)),
            ("direction", _swap_direction(words))]


def _replace_name(words: list[str], rng: random.Random, foreign: list[str]) -> str | None:
    spots = [i for i, w in enumerate(words) if _NAME.fullmatch(w.strip(".,;:()"))
             and not w.strip(".,;:()").isdigit()]
    if not spots or not foreign:
        return None
    i = rng.choice(spots)
    bare = words[i].strip(".,;:()")
    return " ".join([*words[:i], words[i].replace(bare, rng.choice(foreign)), *words[i + 1:]])


def _flip_negation(words: list[str]) -> str | None:
    for i, w in enumerate(words):
        if w.lower() in _NEGATED:
            out = [*words[:i], _NEGATED[w.lower()], *words[i + 1:]]
            return " ".join(x for x in out if x)
    for i, w in enumerate(words[:-1]):
        if w.lower() in _AUXILIARIES:
            return " ".join([*words[:i + 1], "not", *words[i + 1:]])
    return None


def _swap_direction(words: list[str]) -> str | None:
    for i, w in enumerate(words):
        bare = w.strip(".,;:()").lower()
        if bare in _SWAPS:
            new = _SWAPS[bare]
            swapped = w.replace(w.strip(".,;:()"), new if w[:1].islower() else new.capitalize())
            return " ".join([*words[:i], swapped, *words[i + 1:]])
    return None
