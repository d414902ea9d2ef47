"""The reader: a paper's pages with a selectable text layer, a report beside them, and the
downloads (the original file, a report's cited works as BibTeX)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response

from papermind.domain.text_layer import PageWords, Word
from papermind.errors import NotFoundError
from papermind.reports import span_label, span_of
from papermind.services.container import Container
from papermind.services.jobs import JobService
from papermind.services.report_view import StoredReport, cited_bibtex, highlights, load_report
from papermind.web.routes import templates

IMAGE_SCALE = 2.0
"""Page images are rendered at this scale and shown at the column's width."""
router = APIRouter(include_in_schema=False)


def _parts(request: Request) -> tuple[Container, JobService]:
    return request.app.state.container, request.app.state.jobs


@router.get("/papers/{paper_id}/pages/{number}", response_class=HTMLResponse)
def reader(request: Request, paper_id: str, number: int,
           lines: Annotated[str | None, Query(max_length=40)] = None,
           report: Annotated[str | None, Query(max_length=100)] = None) -> HTMLResponse:
    """Every page of the paper, scrolled to ``number``; ``lines`` highlighted (a span, as in
    ``papermind.reports.page_href``); ``report`` (a job id) shown beside the pages."""
    box, jobs = _parts(request)
    stored = box.library.show(paper_id)
    doc = stored.paper
    if not 1 <= number <= len(doc.pages):
        raise NotFoundError(f"page {number} does not exist (the paper has {len(doc.pages)})")
    shown = load_report(box, jobs.store, report) if report else None
    span = span_of(lines, number)
    words = {p.page: p for p in box.page_text.words(doc)}
    on_paper = [j for j in jobs.store.recent(200, status="completed")
                if doc.id in (j.request.paper_id, *j.request.paper_ids)]
    return templates.TemplateResponse(request, "reader.html", {
        "paper": doc, "record": stored.record, "number": number, "span": span,
        "cited": span_label(span) if span else "", "words": words,
        "report": shown, "marks": highlights(doc, shown.data) if shown else {},
        "reports": on_paper, "scale": IMAGE_SCALE, "line_words": _line_words,
        "error": request.query_params.get("error")})


def _line_words(page: PageWords | None) -> dict[int, list[Word]]:
    return page.by_line() if page is not None else {}


@router.get("/papers/{paper_id}/original")
def original(request: Request, paper_id: str) -> FileResponse:
    """The file as it was added (PDF, text or Markdown), as a download."""
    box, _ = _parts(request)
    record = box.papers.record(box.papers.resolve(paper_id))
    path = box.papers.file_path(record.id)
    if not path.is_file():
        raise NotFoundError(f"the original file of paper {record.id[:12]} is missing")
    media = {"pdf": "application/pdf", "md": "text/markdown", "txt": "text/plain"}
    return FileResponse(path, media_type=media.get(record.source_type, "application/octet-stream"),
                        filename=record.source_name or f"{record.id[:12]}.{record.source_type}")


@router.get("/jobs/{job_id}/read")
def read_report(request: Request, job_id: str) -> Response:
    """A report beside the (first) paper it is about."""
    report = _report(request, job_id)
    ids = report.paper_ids()
    if not ids:
        raise NotFoundError(f"job {job_id}'s report cites no paper")
    return RedirectResponse(f"/papers/{ids[0]}/pages/1?report={report.job.id}", status_code=303)


@router.get("/jobs/{job_id}/cited.bib")
def cited(request: Request, job_id: str) -> Response:
    """BibTeX of the bibliography entries the report cites (resolved by grounding)."""
    report = _report(request, job_id)
    return Response(cited_bibtex(request.app.state.container, report),
                    media_type="application/x-bibtex; charset=utf-8", headers={
                        "Content-Disposition": f'attachment; filename="{report.job.id}-cited.bib"'})


def _report(request: Request, job_id: str) -> StoredReport:
    box, jobs = _parts(request)
    return load_report(box, jobs.store, job_id)
