"""A paper's page (its pages are read in papermind.web.reader)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from papermind.api.deps import ContainerDep
from papermind.domain.paper import Finding, Paper
from papermind.errors import InputError, OfflineError, PapermindError
from papermind.services.add_by_id import parse_identifier
from papermind.web.pages import back, render

router = APIRouter(include_in_schema=False)


@router.get("/papers/{paper_id}", response_class=HTMLResponse)
def paper(request: Request, paper_id: str, box: ContainerDep) -> HTMLResponse:
    stored = box.library.show(paper_id)
    doc = stored.paper
    return render(request, "paper.html", paper=doc, record=stored.record,
                  finding_hrefs=[finding_href(doc, f) for f in doc.findings])


@router.get("/papers/{paper_id}/references", response_class=HTMLResponse)
def references(request: Request, paper_id: str, box: ContainerDep) -> HTMLResponse:
    """The References tab: every bibliography entry checked (when the sources are on)."""
    stored = box.library.show(paper_id)
    try:
        report = box.references.check(stored.record.id, files=False)
    except OfflineError:
        report = None
    return render(request, "references.html", paper=stored.paper, record=stored.record,
                  report=report, offline=report is None)


@router.post("/ui/add-by-id")
def add_by_id(identifier: Annotated[str, Form(max_length=500)], box: ContainerDep) -> Response:
    """One click on a scholarly result: its open-access PDF and metadata into the library."""
    try:
        ident = parse_identifier(identifier)
        if ident is None:
            raise InputError(f"{identifier!r} is not a DOI, arXiv id or URL")
        result = box.add_by_id.add(ident)
    except PapermindError as err:
        return back("/", str(err))
    if result.status == "failed" or not result.paper_id:
        return back("/", result.reason or "the paper could not be added")
    return RedirectResponse(f"/papers/{result.paper_id}", status_code=303)


def finding_href(doc: Paper, finding: Finding) -> str:
    """The page view of a finding, its lines highlighted when its box meets some."""
    href = f"/papers/{doc.id}/pages/{finding.page}"
    if finding.box is None or not 1 <= finding.page <= len(doc.pages):
        return href
    hit = [ln.n for ln in doc.page(finding.page).lines if ln.box is not None and
           ln.box.x0 < finding.box.x1 and finding.box.x0 < ln.box.x1 and
           ln.box.y0 < finding.box.y1 and finding.box.y0 < ln.box.y1]
    return f"{href}?lines={min(hit)}-{max(hit)}" if hit else href
