"""The existing number checks as findings: a number that disagrees with its table cell, a
claim that a row beats one the table shows ahead of it, a change word against its numbers."""

from __future__ import annotations

from papermind.domain.anchor import Anchor
from papermind.domain.check import CheckFinding
from papermind.domain.paper import Paper, Severity
from papermind.grounding.change_claims import change_findings
from papermind.grounding.paper_check.spots import Spot, finding
from papermind.grounding.paper_numbers import number_findings
from papermind.grounding.table_claims import claim_findings

SEVERITY: dict[str, Severity] = {
    "number_vs_table/pinned": "high",
    "number_vs_table/named": "medium",
    "number_vs_table/metric": "low",
    "claim_vs_table": "medium",
    "change_vs_numbers": "medium",
}
"""Severity per finding kind, from measured precision on real papers (docs/check.md): a
number misquoting the one cell its sentence names (row and column) is right >= 9 in 10;
one read against a row or column only, and claims read against a table, are not; one whose
sentence names only the table's metric is a hint."""


def number_check_findings(paper: Paper) -> list[CheckFinding]:
    """Numbers vs tables, claims vs tables, change words vs their numbers."""
    out = []
    for f in number_findings(paper):
        cell = f.check.cell
        where = f"Table {cell.table_number}" if cell and cell.table_number else "its table"
        shown = f" ({where} prints {cell.text!r})" if cell else ""
        said = "its caption states" if f.in_caption else "the text states"
        level = SEVERITY[f"number_vs_table/{f.naming}"]
        out.append(finding("number_vs_table", level, "soundness",
                           f"{said} {f.check.stated}, which disagrees with {where}{shown}",
                           _spot(f.sentence_anchor), text=f.sentence,
                           line_end=f.sentence_anchor.line_end,
                           fix="make the number in the text and the table agree"))
    for c in claim_findings(paper):
        out.append(finding("claim_vs_table", SEVERITY["claim_vs_table"], "soundness",
                           f"the text says {c.winner} beats {c.loser}, but Table {c.table_number} "
                           f"shows it behind ({'; '.join(c.columns)})",
                           _spot(c.sentence_anchor), text=c.sentence,
                           fix="correct the claim or the table"))
    for ch in change_findings(paper):
        out.append(finding("change_vs_numbers", SEVERITY["change_vs_numbers"], "soundness",
                           f"'{ch.verb}' disagrees with its numbers (from {ch.before} to {ch.after})",
                           _spot(ch.sentence_anchor), text=ch.sentence,
                           fix="use the change word the numbers show"))
    return out


def _spot(anchor: Anchor) -> Spot:
    return Spot("", anchor.page, anchor.line_start, None, anchor.paper_id)
