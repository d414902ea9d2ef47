"""Grounding: the model proposes quotes, code finds them.

Deterministic and model-free. ``QuoteLocator`` turns a quote into an Anchor (or says it is
not in the paper), ``check_claim`` flags numbers, names and table / figure / section /
equation references a claim cannot back up, ``ReferenceResolver`` ties a cited work to the
paper's own bibliography, and ``ground_quote`` combines them into one verdict.
"""

from papermind.grounding.claims import check_claim, named_terms
from papermind.grounding.engine import GroundingEngine
from papermind.grounding.locator import QuoteLocator
from papermind.grounding.references import ReferenceCheck, ReferenceResolver
from papermind.grounding.verdict import evidence_json, ground_quote, summary_json

__all__ = [
    "GroundingEngine", "QuoteLocator", "ReferenceCheck", "ReferenceResolver", "check_claim",
    "evidence_json", "ground_quote", "named_terms", "summary_json",
]
