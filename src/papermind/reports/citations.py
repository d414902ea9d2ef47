"""The one JSON shape of an evidence item, its honest status label, and its page link."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote as url_quote

from papermind.domain import Anchor, Box, Evidence, Support, VerificationSummary

EvidenceLike = Evidence | Mapping[str, Any]
"""An Evidence, or its ``evidence_json`` form (reports store evidence as data)."""

STATUS_VERIFIED = "verified"
STATUS_NOT_FOUND = "NOT FOUND"


def anchor_json(anchor: Anchor | None) -> dict[str, Any] | None:
    """``{paper_id, page, line_start, page_end, line_end, boxes, label}`` (``page_end`` is
    always set: the page of the last line), or None when there is no anchor."""
    if anchor is None:
        return None
    return {"paper_id": anchor.paper_id, "page": anchor.page, "line_start": anchor.line_start,
            "page_end": anchor.page_end or anchor.page, "line_end": anchor.line_end,
            "boxes": [box.model_dump() for box in anchor.boxes], "label": anchor.label()}


def support_json(support: Support) -> dict[str, str]:
    """``{verdict, by, reason}``."""
    return {"verdict": support.verdict, "by": support.by, "reason": support.reason}


def evidence_json(evidence: Evidence) -> dict[str, Any]:
    """The one JSON form of an evidence item, in every report and response.

    ``quote``, ``cited`` (line ids), ``claim``, ``found``, ``verified`` (found AND supported),
    ``status`` (the label every surface shows), ``anchor`` (null unless found), ``support``,
    ``text`` (the paper's exact text at the anchor), ``score``, ``method``, ``reasons`` (why
    not found / not supported), ``notes`` (what code changed, e.g. a moved anchor) and
    ``related`` (share of the claim code found at or around the anchor, or null).
    """
    return {
        "quote": evidence.quote, "cited": evidence.cited, "claim": evidence.claim,
        "found": evidence.found, "verified": evidence.verified,
        "status": status_label(evidence),
        "anchor": anchor_json(evidence.anchor), "support": support_json(evidence.support),
        "text": evidence.matched_text, "score": round(evidence.score, 4),
        "method": evidence.method, "reasons": list(evidence.reasons),
        "notes": list(evidence.notes), "related": evidence.related,
    }


def summary_json(items: list[Evidence]) -> dict[str, Any]:
    """Per-report counts of both verdicts; ``verified`` = found and supported."""
    s = VerificationSummary.of(items)
    return {"total": s.total, "found": s.found, "verified": s.verified,
            "supported": s.supported, "contradicted": s.contradicted,
            "not_enough": s.not_enough, "unchecked": s.unchecked,
            "share_found": round(s.share_found, 4),
            "share_verified": round(s.share_supported, 4), "unfound": list(s.unfound)}


def status_label(item: EvidenceLike) -> str:
    """'verified' only for found AND supported; otherwise what holds, e.g. 'found · support
    unchecked', 'found · contradicted (code: ...)', 'NOT FOUND (reason)'."""
    evidence = as_evidence(item)
    if not evidence.found:
        why = "; ".join(evidence.reasons)
        return f"{STATUS_NOT_FOUND} ({why})" if why else STATUS_NOT_FOUND
    support = evidence.support
    if support.verdict == "supported":
        return STATUS_VERIFIED
    if support.verdict == "unchecked":
        return "found · support unchecked"
    words = support.verdict.replace("_", " ")
    who = support.by or "unknown"
    return f"found · {words} ({who}: {support.reason})" if support.reason else \
        f"found · {words} ({who})"


def status_class(item: EvidenceLike) -> str:
    """A CSS-friendly key: verified | unchecked | not_enough | contradicted | not_found."""
    evidence = as_evidence(item)
    if not evidence.found:
        return "not_found"
    return "verified" if evidence.verified else evidence.support.verdict


def page_href(anchor: Anchor, page: int | None = None, *, paper_id: str = "") -> str:
    """Link into the web page view of ``anchor`` (on ``page``, default its first page; of
    ``paper_id`` when the anchor does not name its paper).

    A span on one page travels as ``?lines=12-15``; one that crosses pages in line-id form
    (``?lines=4:90-5:12``), so the view of either page highlights its part of it."""
    at = page or anchor.page
    return (f"/papers/{url_quote(paper_id or anchor.paper_id, safe='')}/pages/{at}"
            f"?lines={span_spec(anchor)}")


def span_spec(anchor: Anchor) -> str:
    """The ``?lines=`` value of an anchor: '12-15' on one page, '4:90-5:12' across pages."""
    end = anchor.page_end or anchor.page
    return (f"{anchor.line_start}-{anchor.line_end}" if end == anchor.page
            else f"{anchor.page}:{anchor.line_start}-{end}:{anchor.line_end}")


_SPAN = re.compile(r"^(?:(\d+):)?(\d+)(?:-(?:(\d+):)?(\d+))?$")


def span_of(spec: str | None, page: int) -> tuple[int, int, int, int] | None:
    """(page, line_start, page_end, line_end) of a ``?lines=`` value seen on ``page``:
    '12-15' and '12' are on ``page``, '4:90-5:12' names its pages; None if unreadable or
    backwards."""
    match = _SPAN.match((spec or "").strip())
    if match is None:
        return None
    p1 = int(match.group(1)) if match.group(1) else page
    l1 = int(match.group(2))
    p2 = int(match.group(3)) if match.group(3) else p1
    l2 = int(match.group(4)) if match.group(4) else l1
    if l1 < 1 or l2 < 1 or (p2, l2) < (p1, l1):
        return None
    return p1, l1, p2, l2


def lines_on_page(spec: str | None, page: int, line_count: int) -> tuple[int, int]:
    """The lines of ``page`` that the span ``spec`` covers, as (first, last); (0, -1) when
    it covers none (a middle page of a long span is covered whole)."""
    span = span_of(spec, page)
    if span is None or not span[0] <= page <= span[2]:
        return 0, -1
    first = span[1] if page == span[0] else 1
    last = span[3] if page == span[2] else line_count
    return (first, last) if first <= last else (0, -1)


def span_label(span: tuple[int, int, int, int]) -> str:
    """'p. 4, l. 90 - p. 5, l. 12' (the anchor label) of a span."""
    p1, l1, p2, l2 = span
    return Anchor(page=p1, line_start=l1, page_end=p2 if p2 != p1 else None,
                  line_end=l2).label()


def as_evidence(item: EvidenceLike, paper_id: str = "") -> Evidence:
    """``item`` as Evidence; an ``evidence_json`` dict is read back (``paper_id`` fills the
    anchor's paper, which the JSON form leaves to the report around it)."""
    if isinstance(item, Evidence):
        return item
    where = item.get("anchor")
    anchor = None if not where else Anchor(
        paper_id=str(where.get("paper_id", paper_id)), page=int(where["page"]),
        line_start=int(where["line_start"]), line_end=int(where["line_end"]),
        page_end=(None if where.get("page_end") in (None, where["page"])
                  else int(where["page_end"])),
        boxes=[Box.model_validate(b) for b in where.get("boxes", [])])
    support = item.get("support") or {}
    return Evidence(
        quote=item.get("quote", ""), cited=item.get("cited", ""), claim=item.get("claim", ""),
        anchor=anchor, matched_text=item.get("text", ""), score=float(item.get("score", 0.0)),
        method=item.get("method", "none"),
        support=Support(verdict=support.get("verdict", "unchecked"), by=support.get("by", ""),
                        reason=support.get("reason", "")),
        reasons=list(item.get("reasons", [])), notes=list(item.get("notes", [])),
        related=None if item.get("related") is None else float(item["related"]))
