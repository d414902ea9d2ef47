"""Resources: ``paper://{id}`` (metadata and outline, JSON) and ``paper://{id}/page/{n}``
(the page's numbered lines, 'line<TAB>text'); the newest papers are listed."""

from __future__ import annotations

import re
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.types import Resource

from papermind.errors import InputError
from papermind.mcp import views
from papermind.mcp.errors import resource_errors
from papermind.mcp.results import cut
from papermind.mcp.runtime import Runtime

_PAGE = re.compile(r"[0-9]{1,6}")
LISTED = 200
"""Papers listed as resources at most (newest first); any stored paper can be read."""


def register(server: MCPServer, rt: Runtime) -> None:
    """Add the paper resources to ``server``."""

    @server.resource("paper://{paper_id}", mime_type="application/json",
                     description="A paper's metadata, abstract, outline, tables and equations.")
    @resource_errors
    async def paper(paper_id: str) -> str:
        box = rt.container

        def run() -> str:
            stored = box.library.show(paper_id)
            info = views.paper_info(rt, stored.record, stored.paper,
                                    box.catalog.labels_of(stored.record.id))
            return info.model_dump_json(indent=1)

        text: str = await rt.call(run)
        return text

    @server.resource("paper://{paper_id}/page/{n}", mime_type="text/plain",
                     description="A page's numbered lines: 'line<TAB>text', as cited "
                                 "('p. N, l. L').")
    @resource_errors
    async def page(paper_id: str, n: str) -> str:
        from papermind.services.browse import read_lines

        if not _PAGE.fullmatch(n):  # ASCII digits: "²".isdigit() is True, int("²") fails
            raise InputError(f"not a page number: {n[:20]!r}")
        window = await rt.call(lambda: read_lines(rt.container.library.show(paper_id).paper,
                                                  int(n), max_lines=10_000))
        text = "\n".join(f"{ln.n}\t{ln.text}" for ln in window.lines)
        return cut(text, rt.limit)


async def listed(rt: Runtime) -> list[Resource]:
    """One ``paper://`` resource per stored paper (the newest ``LISTED``)."""
    records: list[Any] = await rt.call(rt.container.library.list, limit=LISTED)
    return [Resource(uri=f"paper://{r.id}", name=r.id[:12], title=cut(r.title or r.source_name,
                                                                     200),
                     description=f"{r.pages} pages" + (f", {r.year}" if r.year else ""),
                     mime_type="application/json") for r in records]
