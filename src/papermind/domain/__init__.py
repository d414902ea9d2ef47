"""Pure data: papers, anchors, evidence, chunks, reports. No I/O here."""

from papermind.domain.anchor import Anchor
from papermind.domain.chunk import Chunk, ChunkKind, SearchHit, SearchMode
from papermind.domain.evidence import (
    VERDICT_SEVERITY,
    Evidence,
    MatchMethod,
    Support,
    SupportVerdict,
    VerificationSummary,
)
from papermind.domain.geometry import Box
from papermind.domain.paper import (
    Block,
    Caption,
    Citation,
    Equation,
    Finding,
    Line,
    LineRef,
    Page,
    Paper,
    Paragraph,
    Reference,
    Section,
    SectionKind,
    Segment,
)

__all__ = [
    "Anchor", "Block", "Box", "Caption", "Chunk", "ChunkKind", "Citation", "Equation",
    "Evidence", "Finding", "Line", "LineRef", "MatchMethod", "Page", "Paper", "Paragraph",
    "Reference", "SearchHit", "SearchMode", "Section", "SectionKind", "Segment", "Support",
    "SupportVerdict", "VERDICT_SEVERITY",
    "VerificationSummary",
]
