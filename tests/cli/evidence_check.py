"""The report contract: every evidence item is anchored to lines containing it, or not found;
"verified" only when found AND supported."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from papermind.config import load_settings
from papermind.services.container import Container


def _flat(text: str) -> str:
    return re.sub(r"\W+", "", text).lower()


def assert_evidence_anchored(report: dict[str, Any], home: Path) -> int:
    """Check every evidence item of a reading report; returns how many there were."""
    with Container(load_settings(home)) as container:
        paper = container.library.get(report["paper_id"])
    seen = 0
    for point in report["points"]:
        for e in point["evidence"]:
            seen += 1
            assert set(e) >= {"quote", "cited", "found", "verified", "anchor", "support", "text"}
            if e["anchor"] is None:
                assert e["verified"] is False and e["found"] is False
                continue
            assert e["found"] is True
            assert e["verified"] == (e["support"]["verdict"] == "supported")
            a = e["anchor"]
            page = paper.page(a["page"])
            last = a["line_end"] if a["page_end"] in (None, a["page"]) else len(page.lines)
            assert 1 <= a["line_start"] <= last <= len(page.lines)
            lines = " ".join(page.line(n).text for n in range(a["line_start"], last + 1))
            assert _flat(e["text"]) in _flat(lines)
    return seen
