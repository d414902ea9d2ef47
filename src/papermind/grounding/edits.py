"""Word-level alignment of a claim against cited text (comparison keys, ``difflib``): the
stretch the claim spans, how much of it aligns, and the small edits between them.

``edits(claim, text)`` are the edits next to an aligned stretch, each side at most
``MAX_EDIT`` words: a flipped negation, a swapped comparison word or number is a small edit,
a paraphrase is not.
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher

MAX_EDIT = 4
"""Most words on either side of an edit that is compared."""


def projected(claim: list[str], text: list[str], slack: int = 2) -> list[str]:
    """The stretch of ``text`` the claim spans, placed by their longest common run."""
    m = SequenceMatcher(None, claim, text, autojunk=False).find_longest_match(
        0, len(claim), 0, len(text))
    if m.size == 0:
        return text
    lo = max(0, m.b - m.a - slack)
    return text[lo:m.b + len(claim) - m.a + slack]


def matched_share(claim: list[str], text: list[str]) -> float:
    """Share of the claim's words in runs aligned to ``text``."""
    blocks = SequenceMatcher(None, claim, text, autojunk=False).get_matching_blocks()
    return sum(b.size for b in blocks) / max(1, len(claim))


@dataclass(frozen=True, slots=True)
class Edit:
    """Claim words where the text has others, with the aligned word either side."""

    ours: list[str]
    theirs: list[str]
    left: str = ""
    right: str = ""

    def shown(self, side: list[str]) -> str:
        """``side`` between the aligned words around the edit, for a reason."""
        return " ".join(w for w in (self.left, *side, self.right) if w) or "-"


def edits(claim: list[str], text: list[str]) -> list[Edit]:
    """Each small edit next to an aligned stretch: a word replaced beside one, or words
    added or left out between two."""
    ops = SequenceMatcher(None, claim, text, autojunk=False).get_opcodes()
    found = []
    for i, (tag, a0, a1, b0, b1) in enumerate(ops):
        before = i > 0 and ops[i - 1][0] == "equal"
        after = i < len(ops) - 1 and ops[i + 1][0] == "equal"
        beside = (tag == "replace" and (before or after)) or (tag != "equal" and before and after)
        if beside and max(a1 - a0, b1 - b0) <= MAX_EDIT:
            found.append(Edit(claim[a0:a1], text[b0:b1], claim[a0 - 1] if before else "",
                              claim[a1] if after else ""))
    return found
