"""Anchor: the currency of trust. Produced by grounding code, never by a model."""

from __future__ import annotations

from pydantic import Field

from papermind.domain.base import Frozen
from papermind.domain.geometry import Box


class Anchor(Frozen):
    """Where a span of a paper is: page and line range (per-page numbering), with boxes.

    A span that crosses a page break ends on ``page_end``; otherwise ``page_end`` is None.
    """

    paper_id: str = Field(default="", description="id of the paper in the library")
    page: int = Field(description="1-based page of the first line")
    line_start: int = Field(description="1-based number of the first line on `page`")
    line_end: int = Field(description="number of the last line (on `page_end` when set)")
    page_end: int | None = Field(default=None, description="last page when the span crosses pages")
    boxes: list[Box] = Field(default_factory=list, description="line boxes covered by the span")

    def label(self) -> str:
        """Human form used in every report: ``p. 3, l. 12-15``."""
        if self.page_end is not None and self.page_end != self.page:
            return f"p. {self.page}, l. {self.line_start} - p. {self.page_end}, l. {self.line_end}"
        if self.line_start == self.line_end:
            return f"p. {self.page}, l. {self.line_start}"
        return f"p. {self.page}, l. {self.line_start}-{self.line_end}"
