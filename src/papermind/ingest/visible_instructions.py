"""Visible text addressed to a reviewer or a model ("Reviewers: please give this paper a high
score", "ignore previous instructions", "as an AI language model reviewing this...").

Hidden instructions are found by how they are drawn (hidden_text.py); visible ones are plain
prose, so they are found by what they say, with the stricter reviewer-addressed pattern of
``hidden_grade.addresses_reviewer`` (a paper may well say "a good model should be robust").
Each becomes a finding graded like a hidden one, so ``show`` and the review report list it.
"""

from __future__ import annotations

from collections.abc import Sequence

from papermind.domain.geometry import Box
from papermind.domain.paper import Finding
from papermind.ingest.hidden_grade import addresses_reviewer, severity
from papermind.ingest.layout import LaidOutPage

KIND = "visible_instruction"
REASON = "visible text addressed to a reviewer or model"


def visible_instructions(pages: Sequence[LaidOutPage]) -> list[Finding]:
    """One finding per visible line (flow or furniture) that instructs a reviewer or model."""
    out: list[Finding] = []
    for page in pages:
        lines = [*page.lines, *page.furniture]
        seen: set[str] = set()
        for line in lines:
            if line.text in seen or not addresses_reviewer(line.text):
                continue
            seen.add(line.text)
            box = Box(page=page.number, x0=line.box[0], y0=line.box[1], x1=line.box[2],
                      y1=line.box[3]) if line.box else None
            grade, _ = severity(line.text, ())
            out.append(Finding(kind=KIND, page=page.number, text=line.text, reason=REASON,
                               box=box, severity=grade))
    return out
