"""In-text references to numbered equations ('Eq. 3', 'Eqs. (2) and (3)', 'Equation (3)'),
linked to the display equations that carry those numbers."""

from __future__ import annotations

import re
from collections.abc import Sequence

from papermind.domain.paper import Equation, EquationRef, Paragraph

_REF = re.compile(
    r"\b(?:Eqs?\.|Equations?|eqs?\.|equations?)\s*~?\(?(?P<first>[A-Z]?\d{1,3}(?:\.\d{1,3})?[a-z]?)\)?"
    r"(?P<more>(?:\s*(?:,|and|&|–|-|to)\s*\(?[A-Z]?\d{1,3}(?:\.\d{1,3})?[a-z]?\)?)*)"
)
_LABEL = re.compile(r"[A-Z]?\d{1,3}(?:\.\d{1,3})?[a-z]?")


def equation_refs(blocks: Sequence[Paragraph], equations: Sequence[Equation]) -> list[EquationRef]:
    """Every equation reference in ``blocks``, each label resolved to its equation's id."""
    by_label = {e.label: e.id for e in equations if e.label}
    out: list[EquationRef] = []
    for block in blocks:
        for match in _REF.finditer(block.text):
            seg = next((s for s in block.segments if s.end > match.start()), None)
            if seg is None:
                continue
            labels = [match["first"], *_LABEL.findall(match["more"] or "")]
            for label in labels:
                out.append(EquationRef(marker=match.group().strip(), label=label, page=seg.page,
                                       line=seg.line, equation_id=by_label.get(label)))
    return out
