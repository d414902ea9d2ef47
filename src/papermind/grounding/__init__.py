"""Grounding: models cite line ids (or quote), code finds the text and checks the claim.

Deterministic and model-free. ``GroundingEngine`` is the workflows' Grounder: it shows a
paper with line ids (``line_ids``), materialises cited ids into Evidence (``citing``),
locates bare quotes (``QuoteLocator``), runs the code support checks (``support``,
``claims``) and ties cited works to the paper's own bibliography (``ReferenceResolver``).
How evidence is shown lives in ``papermind.reports``.
"""

from papermind.grounding.claims import Failure, check_claim, named_terms
from papermind.grounding.engine import GroundingEngine
from papermind.grounding.line_ids import LineSpan, numbered, parse_cited
from papermind.grounding.locator import QuoteLocator
from papermind.grounding.references import ReferenceCheck, ReferenceResolver
from papermind.grounding.support import check_support

__all__ = [
    "Failure", "GroundingEngine", "LineSpan", "QuoteLocator", "ReferenceCheck",
    "ReferenceResolver", "check_claim", "check_support", "named_terms", "numbered",
    "parse_cited",
]
