"""Internal working types shared by the ingestion stages (not part of the domain contract)."""

from __future__ import annotations

from dataclasses import dataclass, field

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1; top-left origin, y down


@dataclass(slots=True)
class FlowLine:
    """A line on its way through the pipeline: text plus the layout cues the stages use."""

    page: int
    text: str
    box: Rect | None = None
    size: float = 0.0
    peak: float = 0.0  # largest sampled font size (small-caps headings start bigger)
    bold: bool = False
    font: str = ""  # font name of the line's middle character, subset prefix removed
    lead_font: str = ""  # font name of its first character (run-in headings start bold)
    kind: str = "text"
    column: int = 0
    starts_block: bool = False
    n: int = 0
    heading_level: int = 0  # explicit markup level (Markdown '#'), 0 = none
    # runs of text parted by gaps wider than ~1 em (table cells); empty when there is one run
    pieces: list[tuple[str, Rect]] = field(default_factory=list)
    confidence: float | None = None  # OCR confidence (0..1); None for a text layer's line

    @property
    def height(self) -> float:
        return self.box[3] - self.box[1] if self.box else 0.0


@dataclass(slots=True)
class LaidOutPage:
    """One page after layout analysis: flow lines in reading order, furniture apart."""

    number: int
    width: float = 0.0
    height: float = 0.0
    lines: list[FlowLine] = field(default_factory=list)
    furniture: list[FlowLine] = field(default_factory=list)
    rotated: bool = False  # all text runs at an angle (landscape table page): stream order kept
    ocr: bool = False  # lines recognised from the page image
    turn: int = 0  # degrees clockwise the rendered page was turned to make its text upright


@dataclass(slots=True)
class RawFinding:
    """A hidden-text observation before it becomes a domain Finding."""

    page: int
    text: str
    reason: str
    """Why a reader cannot see it: transparent or background-coloured fill, a tiny font,
    outside the page box, clipped away."""
    box: Rect | None = None
