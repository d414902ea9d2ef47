"""A venue's required parts and page limit, read from the table in venues.json (data: a new
venue is one entry there, no code)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from papermind.domain.check import CheckFinding
from papermind.domain.paper import Paper, Severity
from papermind.grounding.paper_check.spots import Spot, at_line, finding

_MARKUP = re.compile(r"^[\s#*_>]*(?:\\(?:sub)*(?:section|paragraph|chapter)\*?\{|\\textbf\{)?"
                     r"\s*(?:[A-Z]\.|\d+(?:\.\d+)*\.?)?\s*", re.IGNORECASE)


@dataclass(frozen=True)
class Part:
    part: str
    severity: Severity
    patterns: tuple[str, ...]
    why: str


@dataclass(frozen=True)
class Venue:
    key: str
    name: str
    page_limit: int | None
    parts: tuple[Part, ...]


@cache
def venues() -> dict[str, Venue]:
    """venue key ('neurips') -> its requirements, from the packaged table."""
    raw: dict[str, Any] = json.loads(
        resources.files(__package__).joinpath("venues.json").read_text(encoding="utf-8"))
    return {key: Venue(key, v["name"], v.get("page_limit"),
                       tuple(Part(p["part"], p["severity"], tuple(p["patterns"]), p["why"])
                             for p in v["parts"]))
            for key, v in raw.items() if not key.startswith("_")}


def venue_findings(venue: Venue, spots: Sequence[Spot], headings: Sequence[str]) -> list[CheckFinding]:
    """Required parts of ``venue`` that no heading and no line opening names."""
    openings = [_MARKUP.sub("", h) for h in headings] + [_MARKUP.sub("", s.text) for s in spots]
    out = []
    for part in venue.parts:
        pattern = re.compile("|".join(f"(?:{p})" for p in part.patterns), re.IGNORECASE)
        if not any(pattern.match(text) for text in openings):
            out.append(finding("venue_part_missing", part.severity, "venue",
                               f"no {part.part} section ({venue.name}: {part.why})", None,
                               fix=f"add a '{part.part.capitalize()}' section"))
    return out


def page_limit_findings(venue: Venue, paper: Paper) -> tuple[list[CheckFinding], str | None]:
    """(findings, note): the main text (before the references) against the page limit; the
    note says why it was not measured."""
    if venue.page_limit is None:
        return [], None
    if paper.source_type != "pdf":
        return [], f"the {venue.name} page limit is checked on a PDF only"
    refs = next((s for s in paper.sections if s.kind == "references"), None)
    if refs is None:
        return [], f"the {venue.name} page limit was not checked: no references heading found"
    main_pages = refs.page - (1 if refs.line <= 2 else 0)
    if main_pages <= venue.page_limit:
        return [], None
    return [finding("page_limit", "high", "venue",
                    f"the main text runs to page {main_pages}; {venue.name} allows "
                    f"{venue.page_limit} pages before the references",
                    at_line(paper, refs.page, refs.line),
                    fix="shorten the main text or move material to the appendix")], None
