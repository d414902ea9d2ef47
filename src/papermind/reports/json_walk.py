"""Walking a report's JSON without assuming its layout."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any


def json_objects(data: Any, *, enter: Callable[[dict[str, Any]], bool] = lambda _: True,
                 ) -> Iterator[dict[str, Any]]:
    """Every JSON object in ``data``, depth first in document order; an object for which
    ``enter`` is false is yielded but its values are not searched."""
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(reversed(node))
        elif isinstance(node, dict):
            yield node
            if enter(node):
                stack.extend(reversed(list(node.values())))
