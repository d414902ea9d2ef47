"""Page geometry: boxes in PDF points, origin at the page's top-left corner, y downwards."""

from __future__ import annotations

from pydantic import Field

from papermind.domain.base import Frozen


class Box(Frozen):
    """A rectangle on one page (PDF points; origin top-left, y grows downwards)."""

    page: int = Field(description="1-based page number the box lies on")
    x0: float = Field(description="left edge")
    y0: float = Field(description="top edge")
    x1: float = Field(description="right edge")
    y1: float = Field(description="bottom edge")

    def union(self, other: Box) -> Box:
        """The smallest box covering both (same page)."""
        return Box(page=self.page, x0=min(self.x0, other.x0), y0=min(self.y0, other.y0),
                   x1=max(self.x1, other.x1), y1=max(self.y1, other.y1))
