"""A paper's page and the view of one of its pages with the cited lines highlighted."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse

from papermind.api.deps import ContainerDep
from papermind.domain.paper import Finding, Paper
from papermind.errors import NotFoundError
from papermind.reports import lines_on_page, span_label, span_of
from papermind.web.pages import render

router = APIRouter(include_in_schema=False)
PAGE_SCALE = 1.5


@router.get("/papers/{paper_id}", response_class=HTMLResponse)
def paper(request: Request, paper_id: str, box: ContainerDep) -> HTMLResponse:
    stored = box.library.show(paper_id)
    doc = stored.paper
    return render(request, "paper.html", paper=doc, record=stored.record,
                  finding_hrefs=[finding_href(doc, f) for f in doc.findings])


def finding_href(doc: Paper, finding: Finding) -> str:
    """The page view of a finding, its lines highlighted when its box meets some."""
    href = f"/papers/{doc.id}/pages/{finding.page}"
    if finding.box is None or not 1 <= finding.page <= len(doc.pages):
        return href
    hit = [ln.n for ln in doc.page(finding.page).lines if ln.box is not None and
           ln.box.x0 < finding.box.x1 and finding.box.x0 < ln.box.x1 and
           ln.box.y0 < finding.box.y1 and finding.box.y0 < ln.box.y1]
    return f"{href}?lines={min(hit)}-{max(hit)}" if hit else href


@router.get("/papers/{paper_id}/pages/{number}", response_class=HTMLResponse)
def page(request: Request, paper_id: str, number: int, box: ContainerDep,
         lines: str | None = Query(None, max_length=20)) -> HTMLResponse:
    stored = box.library.show(paper_id)
    doc = stored.paper
    if not 1 <= number <= len(doc.pages):
        raise NotFoundError(f"page {number} does not exist (the paper has {len(doc.pages)})")
    current = doc.page(number)
    first, last = lines_on_page(lines, number, len(current.lines))
    span = span_of(lines, number) if first else None
    marks = [{"n": ln.n, "x0": ln.box.x0, "y0": ln.box.y0, "x1": ln.box.x1, "y1": ln.box.y1}
             for ln in current.lines if first <= ln.n <= last and ln.box is not None]
    others = [] if span is None else [p for p in range(span[0], span[2] + 1)
                                      if p != number and 1 <= p <= len(doc.pages)]
    return render(request, "page.html", paper=doc, page=current, first=first, last=last,
                  highlight=marks, scale=PAGE_SCALE, lines=lines,
                  cited=span_label(span) if span else "", span_pages=others,
                  image=stored.record.source_type == "pdf")
