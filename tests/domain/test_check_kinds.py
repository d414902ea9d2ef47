"""The finding-kind table (SARIF rules, docs) knows every kind the checks report, and
nothing they no longer report."""

from __future__ import annotations

import re
from pathlib import Path

from papermind.domain.check_kinds import FINDING_KINDS, kind_info

SRC = Path(__file__).parents[2] / "src" / "papermind"
_EMITTED = (re.compile(r'\bfinding\(\s*"([a-z_]+)"'), re.compile(r'return "(reference_[a-z_]+)"'),
            re.compile(r'\bFinding\(kind="([a-z_]+)"'))
BUILT = {"table_never_referenced", "figure_never_referenced"}
"""Kinds whose names the checks build (f"{caption kind}_never_referenced")."""


def _emitted() -> set[str]:
    kinds: set[str] = set()
    for folder in (SRC / "grounding" / "paper_check", SRC / "ingest"):
        for path in folder.glob("*.py"):
            text = path.read_text(encoding="utf-8")
            for pattern in _EMITTED:
                kinds |= set(pattern.findall(text))
    return kinds


def test_every_reported_kind_has_a_row() -> None:
    emitted = _emitted()
    assert {"citation_without_entry", "hidden_text", "reference_retracted"} <= emitted
    assert emitted - set(FINDING_KINDS) == set()
    assert set(FINDING_KINDS) - emitted <= BUILT


def test_an_unknown_kind_still_gets_a_description() -> None:
    info = kind_info("brand_new_check")
    assert info.title == "Brand new check" and "brand_new_check" in info.help
