"""Text from a paper, a user or a model, made safe to put in a Markdown report.

Markdown viewers render inline HTML, links, images and autolinks, so a title holding
``<script>``, ``<img onerror=...>`` or ``[click](javascript:...)`` would act, not read, in a
viewer. ``md_text`` is the one escaping every Markdown renderer applies to such text: ``<``
and ``>`` become entities (no tag, no autolink can open), brackets, asterisks, pipes and
backslashes are backslash-escaped (no link, image, emphasis or table cell can form;
underscores stay as written: names like ``methodology_reviewer`` read as they are), the colon of a script
URL scheme becomes an entity, and the value is kept on one line (no block can start). A viewer
shows the text exactly as written; a reader of the raw file sees it with a few escapes.
"""

from __future__ import annotations

import re

_PUNCTUATION = re.compile(r"([\\*\[\]|])")
_SCRIPT_SCHEME = re.compile(r"\b(javascript|vbscript|livescript|data)\s*:", re.IGNORECASE)


def md_text(value: object, limit: int | None = None) -> str:
    """``value`` as inert one-line Markdown text (cut to ``limit`` characters first)."""
    text = " ".join(str(value).split())
    if limit is not None and len(text) > limit:
        text = text[:limit - 3] + "..."
    text = _PUNCTUATION.sub(r"\\\1", text)
    text = text.replace("<", "&lt;").replace(">", "&gt;")
    return _SCRIPT_SCHEME.sub(lambda m: f"{m.group(1)}&#58;", text)
