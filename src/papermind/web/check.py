"""A paper's Check tab: the model-free check's findings, each opening the reader on its
lines (the same findings as `papermind check` and GET /api/papers/{id}/check)."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse

from papermind.api.deps import ContainerDep
from papermind.reports.check import by_aspect, finding_href
from papermind.services.paper_checks import check_stored, venue_names
from papermind.web.pages import render

router = APIRouter(include_in_schema=False)


@router.get("/papers/{paper_id}/check", response_class=HTMLResponse)
def check_tab(request: Request, paper_id: str, box: ContainerDep,
              venue: str = Query("", max_length=40), anonymous: bool = Query(False)) -> HTMLResponse:
    stored = box.library.show(paper_id)
    doc = stored.paper
    report = check_stored(doc, venue=venue or None, anonymous=anonymous)
    groups = [(title, [(f, finding_href(f, doc.id)) for f in findings])
              for title, findings in by_aspect(report.findings)]
    return render(request, "check.html", paper=doc, record=stored.record, report=report,
                  groups=groups, venues=venue_names(), venue=venue, anonymous=anonymous)
