"""Planted flaws: which ones code alone catches, and which ones a review panel names.

Code findings come from the deterministic checks every workflow can use: numbers that
disagree with their table (grounding/paper_numbers), claims that one table row beats
another that the table shows behind it (grounding/table_claims), changes said to go up
whose 'from A to B' goes down or the reverse (grounding/change_claims), in-text citations
that resolve to no bibliography entry (grounding/references), 'Table N' / 'Eq. N' mentions
of labels the paper cannot have, and lines that tell a reviewer or model what to do
(ingest/hidden_grade, stricter than the pattern that grades hidden PDF text). A flaw is
caught by code when a finding of its kind lies on its line and the clean paper had no such
finding there; by the panel when a comment has an anchor overlapping its line (one line of
slack) and its text uses a word naming it.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from papermind.domain import Anchor, Paper
from papermind.domain.review import ReviewReport
from papermind.evaluation.perturb.flaws import PlantedFlaw
from papermind.grounding.change_claims import change_findings
from papermind.grounding.paper_numbers import number_findings
from papermind.grounding.references import ReferenceResolver
from papermind.grounding.table_claims import claim_findings
from papermind.ingest.hidden_grade import addresses_reviewer

CODE_KINDS = {"numbers_disagree": ("number_vs_table",),
              "unresolved_citation": ("missing_citation",),
              "dangling_label": ("wrong_reference",),
              "instruction_text": ("reviewer_instruction",),
              "claim_vs_table": ("baseline_not_beaten", "claim_contradicts"),
              "change_vs_numbers": ("claim_contradicts",)}
"""Code finding kind -> the planted flaw kinds it can catch."""
_MENTION = re.compile(r"\b(Table|Tab\.|Eq\.|Equation)\s*\(?(\d+)\)?")
SLACK = 1


@dataclass(frozen=True)
class CodeFinding:
    kind: str
    page: int
    line: int
    text: str


def code_findings(paper: Paper) -> list[CodeFinding]:
    """Every finding of the model-free checks, at its page and first line."""
    found = [CodeFinding("numbers_disagree", f.sentence_anchor.page, f.sentence_anchor.line_start,
                         f.check.stated) for f in number_findings(paper)]
    found += [CodeFinding("claim_vs_table", f.sentence_anchor.page, f.sentence_anchor.line_start,
                          f.sentence) for f in claim_findings(paper)]
    found += [CodeFinding("change_vs_numbers", f.sentence_anchor.page,
                          f.sentence_anchor.line_start, f.sentence) for f in change_findings(paper)]
    resolver = ReferenceResolver(paper)
    if paper.references:
        found += [CodeFinding("unresolved_citation", c.page, c.line, c.marker)
                  for c in paper.citations if not resolver.keys_of(c)]
    equations = {e.label for e in paper.equations if e.label}
    found += [CodeFinding("dangling_label", r.page, r.line, r.marker)
              for r in paper.equation_refs if r.equation_id is None and _beyond(r.label, equations)]
    tables = {t.number for t in paper.tables} | {c.label for c in paper.captions
                                                 if c.kind == "table"}
    for line in paper.lines():
        for match in _MENTION.finditer(line.text):
            if match.group(1) in ("Table", "Tab.") and tables and _beyond(match.group(2), tables):
                found.append(CodeFinding("dangling_label", line.page, line.n, match.group(0)))
        if addresses_reviewer(line.text):
            found.append(CodeFinding("instruction_text", line.page, line.n, line.text))
    return found


def _beyond(label: str, known: Collection[str | None]) -> bool:
    """Whether a referred label is one the paper cannot have: not among its labels and, for
    a number, past its highest one (numbering is consecutive: 'Table 2' in a paper whose
    Table 3 was parsed is a table the parser missed, not a wrong reference)."""
    if label in known:
        return False
    numbers = [int(k) for k in known if k and k.isdigit()]
    return not (label.isdigit() and numbers and int(label) <= max(numbers))


def code_catches(flawed: Paper, clean: Paper, flaws: list[PlantedFlaw]) -> dict[str, bool]:
    """flaw id -> whether a new code finding of its kind lies on its line."""
    before = {(f.kind, f.text) for f in code_findings(clean)}
    new = [f for f in code_findings(flawed) if (f.kind, f.text) not in before]
    return {flaw.id: any(flaw.kind in CODE_KINDS.get(f.kind, ()) and _on(flaw.anchor, f.page, f.line)
                         for f in new) for flaw in flaws}


def panel_catches(report: ReviewReport, flaws: list[PlantedFlaw]) -> dict[str, bool]:
    """flaw id -> whether a comment anchored on its line names it."""
    out = {}
    for flaw in flaws:
        out[flaw.id] = any(_names(comment.content, flaw) and any(
            _overlaps(flaw.anchor, e.get("anchor")) for e in comment.evidence)
            for comment in report.comments)
    return out


def _names(text: str, flaw: PlantedFlaw) -> bool:
    low = text.lower()
    return any(word in low for word in flaw.keywords)


def _on(anchor: Anchor, page: int, line: int) -> bool:
    return page == anchor.page and anchor.line_start - SLACK <= line <= anchor.line_end + SLACK


def _overlaps(anchor: Anchor, other: object) -> bool:
    if not isinstance(other, dict) or other.get("page") != anchor.page:
        return False
    start, end = int(other.get("line_start", 0)), int(other.get("line_end", 0))
    return start <= anchor.line_end + SLACK and end >= anchor.line_start - SLACK
