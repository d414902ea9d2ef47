"""Read the numbered paper out of a scripted model's prompt, as a model would cite it."""

from __future__ import annotations

import re
from collections.abc import Sequence

from langchain_core.messages import BaseMessage

_FENCE = re.compile(r"<<<PAPER_BEGIN [0-9a-f]+>>>\n(.*?)\n<<<PAPER_END", re.DOTALL)
_PAGE = re.compile(r"^\[p\.(\d+)\]$")
_LINE = re.compile(r"^(\d+) (.*)$")


def numbered_lines(messages: Sequence[BaseMessage]) -> list[tuple[str, str]]:
    """(line id 'PAGE:LINE', text) of every numbered line in the fenced paper."""
    text = "\n".join(str(m.content) for m in messages)
    match = _FENCE.search(text)
    page, out = 0, []
    for raw in (match.group(1) if match else "").splitlines():
        if (marker := _PAGE.match(raw)) is not None:
            page = int(marker.group(1))
        elif (line := _LINE.match(raw)) is not None and page:
            out.append((f"{page}:{line.group(1)}", line.group(2)))
    return out


def lines_of(quote: str, lines: list[tuple[str, str]]) -> str:
    """The line range holding ``quote`` ('1:10-11'), or '' when it is not in the prompt."""
    flat, owners = "", []
    for ident, text in lines:
        for ch in " ".join(text.split()) + " ":
            flat += ch
            owners.append(ident)
    start = flat.find(" ".join(quote.split()))
    if start < 0:
        return ""
    first, last = owners[start], owners[start + len(" ".join(quote.split())) - 1]
    page, line = first.split(":")
    end_page, end_line = last.split(":")
    if first == last:
        return first
    return f"{page}:{line}-{end_line}" if page == end_page else f"{first}-{last}"
