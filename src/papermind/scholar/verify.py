"""Check bibliography entries against scholarly sources, deterministically, on a budget.

For each entry: its DOI or arXiv id is looked up first; when no source knows it, the title
(else the printed entry) is searched. Sources are asked in order until a match is found in
two of them (a retraction may be marked in one only), never more than ``max_requests``
lookups per entry. A source that is down is skipped for the rest of the run and named in
the report; a miss is worded "not found in <the sources that answered>: check it", never
"invented".
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TypeVar

from papermind.domain.paper import Reference
from papermind.domain.scholar import FoundWork, ReferenceVerdict, SourceState
from papermind.errors import SourceDownError
from papermind.scholar.matching import (
    SAME_TITLE,
    fold,
    identifier_match,
    is_preprint_citation,
    mismatch_weight,
    mismatches,
    names_another_work,
    same_work,
    title_score,
    version_distance,
)
from papermind.scholar.source import IdKind, ScholarSource

log = logging.getLogger("papermind.scholar")
MAX_REQUESTS = 4
"""Lookups per entry at most (identifier lookups and searches, cached or not)."""
ENOUGH_SOURCES = 2
T = TypeVar("T")


@dataclass
class _Attempt:
    """One entry's lookups: what came back and from where."""

    budget: int
    found: list[FoundWork] = field(default_factory=list)
    accepted: list[FoundWork] = field(default_factory=list)
    answered: list[str] = field(default_factory=list)
    sent: int = 0

    def settled(self) -> bool:
        return self.budget <= 0 or (bool(self.accepted)
                                    and len({w.source for w in self.accepted}) >= ENOUGH_SOURCES)


class ReferenceChecker:
    """Checks entries one by one against ``sources`` (asked in the order given)."""

    def __init__(self, sources: Sequence[ScholarSource], *,
                 max_requests: int = MAX_REQUESTS) -> None:
        self.sources = list(sources)
        self.max_requests = max_requests

    def check_all(self, references: Sequence[Reference]) -> list[ReferenceVerdict]:
        return [self.check(ref) for ref in references]

    def check(self, ref: Reference) -> ReferenceVerdict:
        if not _usable(ref):
            return ReferenceVerdict(index=ref.index, text=ref.raw, status="skipped",
                                    message="no usable text (no title, DOI or arXiv id)")
        attempt = _Attempt(self.max_requests)
        for kind, value in (("doi", ref.doi), ("arxiv", ref.arxiv)):
            if value:
                self._lookup(attempt, ref, kind, value.lower())  # type: ignore[arg-type]
        if not attempt.accepted:
            self._search(attempt, ref, lambda work: True)
        if not attempt.accepted and ref.title:  # the title may be parsed wrong: the whole entry
            self._search(attempt, ref, lambda work: True, query=ref.raw)
        if attempt.accepted and is_preprint_citation(ref) \
                and all(w.is_preprint for w in attempt.accepted):
            self._search(attempt, ref, lambda work: not work.is_preprint)
        return self._verdict(ref, attempt).model_copy(
            update={"requests": self.max_requests - attempt.budget})

    def states(self) -> list[SourceState]:
        return [SourceState(name=s.name, label=s.label, status="down" if s.down else "ok",
                            message=f"{s.label} is down ({s.down})" if s.down else "",
                            sent=s.sent, cached=s.cached) for s in self.sources]

    def _lookup(self, attempt: _Attempt, ref: Reference, kind: IdKind, value: str) -> None:
        for source in self._live():
            if attempt.settled() or not source.supports(kind):
                continue
            work = self._ask(attempt, source, partial(source.lookup, kind, value))
            if work:
                attempt.found.append(work)
                if same_work(ref, work):
                    attempt.accepted.append(work)

    def _search(self, attempt: _Attempt, ref: Reference, wanted: Callable[[FoundWork], bool],
                *, query: str | None = None) -> None:
        """Search sources in turn (for ``query``, else the title, else the entry) until
        ``wanted`` works were found and enough answered (a published version: one is
        enough)."""
        query = query or ref.title or ref.raw
        enough = ENOUGH_SOURCES if attempt.accepted == [] else 1
        answered = 0
        for source in self._live():
            hits = [w for w in attempt.accepted if wanted(w)]
            if attempt.budget <= 0 or (hits and answered >= enough):
                break
            results = self._ask(attempt, source, partial(source.search, query, 5))
            if results is not None:
                answered += 1
                attempt.found.extend(results)
                attempt.accepted.extend(w for w in results if same_work(ref, w) and wanted(w))

    def _ask(self, attempt: _Attempt, source: ScholarSource, call: Callable[[], T]) -> T | None:
        attempt.budget -= 1
        try:
            result = call()
        except SourceDownError as err:
            log.warning("%s", err)
            return None
        attempt.answered.append(source.label)
        return result

    def _live(self) -> list[ScholarSource]:
        return [s for s in self.sources if not s.down]

    def _verdict(self, ref: Reference, attempt: _Attempt) -> ReferenceVerdict:
        base = {"index": ref.index, "text": ref.raw}
        if not attempt.accepted:
            asked = list(dict.fromkeys(attempt.answered))
            if not asked:
                down = ", ".join(s.label for s in self.sources if s.down) or "no source"
                return ReferenceVerdict(**base, status="skipped",
                                        message=f"not checked: {down} could not be reached")
            other = next((w for w in attempt.found if names_another_work(ref, w)), None)
            notes = [f"its {'DOI' if ref.doi == other.doi else 'arXiv id'} names another "
                     f"work: {other.title!r} ({other.year or 'n.d.'})"] if other else []
            return ReferenceVerdict(**base, status="not_found", notes=notes,
                                    message=f"not found in {', '.join(asked)}: check it")
        ranked = sorted(attempt.accepted, key=lambda w: (
            not identifier_match(ref, w), mismatch_weight(ref, w), version_distance(ref, w),
            -title_score(ref, w)))
        best = ranked[0]
        wrong = mismatches(ref, best)
        retracted = _retracted(best, attempt)
        notes = _published_note(ref, attempt.accepted, best)
        if wrong and _ambiguous(ref, best, ranked[1:]):
            return ReferenceVerdict(**base, status="ambiguous", match=best, retracted=retracted,
                                    notes=notes, message="several works fit this entry: check it")
        status = "mismatch" if wrong else "verified"
        message = "; ".join(f"{m.field}: cited {m.cited!r}, {_label(best)} has {m.found!r}"
                            for m in wrong)
        if retracted:
            message = f"retracted ({_label(best)}){': ' + message if message else ''}"
        return ReferenceVerdict(**base, status=status, mismatches=wrong, match=best,
                                retracted=retracted, notes=notes,
                                message=message + (": check it" if wrong else ""))


def _usable(ref: Reference) -> bool:
    return bool(ref.doi or ref.arxiv or len(fold(ref.title).split()) >= 2
                or len(fold(ref.raw).split()) >= 5)


def _same_identity(a: FoundWork, b: FoundWork) -> bool:
    return (a.doi is not None and a.doi == b.doi) or (fold(a.title) == fold(b.title)
                                                      and a.year == b.year)


def _retracted(best: FoundWork, attempt: _Attempt) -> bool:
    return any(w.retracted for w in attempt.accepted if _same_identity(w, best)) or \
        bool(best.doi and any(best.doi in w.retracts for w in attempt.found))


def _ambiguous(ref: Reference, best: FoundWork, others: list[FoundWork]) -> bool:
    """Another work fits as well and is a different work (another DOI, other first author)."""
    wrong = mismatch_weight(ref, best)
    return any(not _same_identity(best, w) and mismatch_weight(ref, w) == wrong
               and title_score(ref, w) >= SAME_TITLE and not identifier_match(ref, w)
               and fold(w.authors[0] if w.authors else "") != fold(
                   best.authors[0] if best.authors else "") for w in others)


def _published_note(ref: Reference, accepted: list[FoundWork],
                    best: FoundWork | None = None) -> list[str]:
    if not is_preprint_citation(ref):
        if best is not None and best.is_preprint and ref.year and best.year != ref.year:
            return [f"the sources know this work only as a preprint ({best.year}"
                    f"{f', doi:{best.doi}' if best.doi else ''})"]
        return []
    published = next((w for w in accepted if not w.is_preprint and w.venue), None)
    if published is None:
        return []
    doi = f", doi:{published.doi}" if published.doi else ""
    return [f"cited as a preprint; a published version exists: {published.venue}"
            f"{f' ({published.year})' if published.year else ''}{doi}"]


_LABELS = {"openalex": "OpenAlex", "crossref": "Crossref", "arxiv": "arXiv",
           "semantic_scholar": "Semantic Scholar"}


def _label(work: FoundWork) -> str:
    return _LABELS.get(work.source, work.source)
