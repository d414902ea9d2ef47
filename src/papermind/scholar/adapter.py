"""What every source adapter shares: its HTTP side, the identifier kinds it indexes, the
request counts, and (for the JSON sources) the lookup and search themselves.

A JSON adapter says only what differs: the request of a lookup and of a search, where the work
or the result list stands in the answer, and how one work object reads as a ``FoundWork``.
"""

from __future__ import annotations

from typing import Any

from papermind.domain.scholar import FoundWork
from papermind.scholar.http import SourceHttp
from papermind.scholar.source import IdKind

Request = tuple[str, dict[str, object]]
"""A request to a source: path (below its base URL) and query parameters."""


def dig(data: Any, *keys: str) -> Any:
    """``data[k1][k2]...``, or None where a step is missing or not an object."""
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    return data


class HttpSource:
    """An adapter over one ``SourceHttp``: ``supports`` from ``kinds``, counts from the HTTP side."""

    name: str
    label: str
    kinds: frozenset[IdKind] = frozenset()
    """The identifier kinds it can look up (a lookup of another kind sends nothing)."""

    def __init__(self, http: SourceHttp) -> None:
        self.http = http

    def supports(self, kind: IdKind) -> bool:
        return kind in self.kinds

    @property
    def sent(self) -> int:
        return self.http.sent

    @property
    def cached(self) -> int:
        return self.http.cached

    @property
    def down(self) -> str | None:
        return self.http.down


class JsonSource(HttpSource):
    """A source that answers JSON: lookup and search, from the subclass's requests and paths."""

    work_at: tuple[str, ...] = ()
    """Where the work object stands in a lookup's answer."""
    work_id: str = ""
    """A key the work object must have (non-empty) to be a work."""
    results_at: tuple[str, ...] = ()
    """Where the list of results stands in a search's answer."""
    item_at: tuple[str, ...] = ()
    """Where the work object stands in one search result."""

    def lookup(self, kind: IdKind, value: str) -> FoundWork | None:
        if not self.supports(kind):
            return None
        work = dig(self.http.get_json(*self.lookup_request(kind, value)), *self.work_at)
        if not isinstance(work, dict) or (self.work_id and not work.get(self.work_id)):
            return None
        return self.parse(work)

    def search(self, query: str, k: int = 5) -> list[FoundWork]:
        results = dig(self.http.get_json(*self.search_request(query, k)), *self.results_at)
        items = [dig(result, *self.item_at) for result in results[:k]] \
            if isinstance(results, list) else []
        return [self.parse(item) for item in items if isinstance(item, dict)]

    def lookup_request(self, kind: IdKind, value: str) -> Request:
        raise NotImplementedError(f"{self.label} has no lookup by identifier")

    def search_request(self, query: str, k: int) -> Request:
        raise NotImplementedError

    def parse(self, item: dict[str, Any]) -> FoundWork:
        raise NotImplementedError
