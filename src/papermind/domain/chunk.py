"""Search units and search results."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from papermind.domain.anchor import Anchor
from papermind.domain.base import Frozen
from papermind.domain.paper import SectionKind

ChunkKind = Literal["content", "equation", "caption", "reference"]
SearchMode = Literal["bm25", "dense", "hybrid"]


class Chunk(Frozen):
    """Paragraphs of one section grouped up to a token budget; never crosses sections."""

    id: str = Field(description="'<paper_id>:<n>'")
    paper_id: str
    kind: ChunkKind = "content"
    section_path: list[str] = Field(default_factory=list)
    section_kind: SectionKind = "other"
    text: str
    anchors: list[Anchor] = Field(default_factory=list, description="line spans the text covers")
    year: int | None = None
    content_hash: str = Field(default="", description="hash of text, keys the embedding cache")


class SearchHit(Frozen):
    """One search result."""

    paper_id: str
    chunk_id: str
    score: float
    text: str
    section: str = Field(default="", description="section path joined with ' > '")
    section_kind: SectionKind = "other"
    anchor: Anchor | None = None
    year: int | None = None
