"""How models cite the paper: line ids, as the JSON schemas they fill describe them.

Every workflow shows the paper as numbered lines (``Grounder.numbered_text``) and asks for
PAGE:LINE ids. The schema's ``pattern`` turns that into a hard rule where decoding is
constrained (the bundled model: llama.cpp compiles it into its grammar), so a small model
can only write ids, never a quote or a copied example phrase in their place. Our own
validation stays lenient: the grounder reads whatever arrives and says why ids are unusable.
"""

from __future__ import annotations

from typing import Any

SPAN = "[0-9]{1,3}:[0-9]{1,4}(-([0-9]{1,3}:)?[0-9]{1,4})?"
"""One PAGE:LINE id or range: '3:12', '3:12-14', '3:40-4:2'."""

LINE_ID_PATTERN = f"^{SPAN}$"
"""One span (for a list-of-ids field's items)."""

LINE_IDS_PATTERN = f"^{SPAN}(, {SPAN}){{0,3}}$"
"""One to four spans separated by ', ' (for a single-string field)."""


def line_ids_schema(*, several: bool, optional: bool = False) -> dict[str, Any]:
    """The JSON-schema fragment of a line-ids string (``several``: a ', '-separated list;
    ``optional``: the empty string too, for passages shown without line numbers)."""
    pattern = LINE_IDS_PATTERN if several else LINE_ID_PATTERN
    if optional:
        pattern = f"^({pattern[1:-1]})?$"
    return {"type": "string", "pattern": pattern}
