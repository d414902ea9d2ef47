"""Finding a component's migration steps in a backend's schema.

Each backend keeps the scripts of the components written in portable SQL (papers, catalog,
labels, caches...) in its own ``schema`` module: ``{component: [step 1, step 2, ...]}``,
where step N of every backend is the same change. A store that exists on one backend only
(SQLite's chunk store, PostgreSQL's search tables) hands its own steps to ``migrate``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def steps_of(schema: Mapping[str, Sequence[str]], backend: str, component: str,
             steps: Sequence[str] | None) -> Sequence[str]:
    """``steps`` when given, else ``component``'s scripts in ``schema``."""
    if steps is not None:
        return steps
    if component not in schema:
        raise ValueError(f"no {backend} migrations for the component {component!r}")
    return schema[component]
