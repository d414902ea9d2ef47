"""The reader: a paper's pages with a selectable text layer, a report beside them, and the
downloads (the original file, a report's cited works as BibTeX)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response

from papermind.api.deps import ContainerDep, JobsDep
from papermind.domain.text_layer import PageWords, Word
from papermind.errors import NotFoundError
from papermind.reports import span_label, span_of
from papermind.services.report_marks import cited_bibtex, highlights, report_papers
from papermind.services.report_view import ReportView, load_report
from papermind.web.pages import render

IMAGE_SCALE = 2.0
"""Page images are rendered at this scale and shown at the column's width."""
MEDIA = {"pdf": "application/pdf", "md": "text/markdown", "txt": "text/plain"}
router = APIRouter(include_in_schema=False)


@router.get("/papers/{paper_id}/pages/{number}", response_class=HTMLResponse)
def reader(request: Request, paper_id: str, number: int, box: ContainerDep, jobs: JobsDep,
           lines: Annotated[str | None, Query(max_length=40)] = None,
           report: Annotated[str | None, Query(max_length=100)] = None) -> HTMLResponse:
    """Every page of the paper, scrolled to ``number``; ``lines`` highlighted (a span, as in
    ``papermind.reports.page_href``); ``report`` (a job id) shown beside the pages."""
    stored = box.library.show(paper_id)
    doc = stored.paper
    if not 1 <= number <= len(doc.pages):
        raise NotFoundError(f"page {number} does not exist (the paper has {len(doc.pages)})")
    shown: ReportView | None = load_report(box, jobs.store.get(report)) if report else None
    span = span_of(lines, number)
    on_paper = [j for j in jobs.store.recent(200, status="completed")
                if doc.id in (j.request.paper_id, *j.request.paper_ids)]
    return render(request, "reader.html", paper=doc, record=stored.record, number=number,
                  span=span, cited=span_label(span) if span else "",
                  words={p.page: p for p in box.page_text.words(doc)}, report=shown,
                  marks=highlights(doc, shown.data) if shown else {}, reports=on_paper,
                  scale=IMAGE_SCALE, line_words=_line_words)


def _line_words(page: PageWords | None) -> dict[int, list[Word]]:
    return page.by_line() if page is not None else {}


@router.get("/papers/{paper_id}/original")
def original(paper_id: str, box: ContainerDep) -> FileResponse:
    """The file as it was added (PDF, text or Markdown), as a download."""
    record = box.papers.record(box.papers.resolve(paper_id))
    path = box.papers.file_path(record.id)
    if not path.is_file():
        raise NotFoundError(f"the original file of paper {record.id[:12]} is missing")
    return FileResponse(path, media_type=MEDIA.get(record.source_type, "application/octet-stream"),
                        filename=record.source_name or f"{record.id[:12]}.{record.source_type}")


@router.get("/jobs/{job_id}/read")
def read_report(job_id: str, box: ContainerDep, jobs: JobsDep) -> Response:
    """A report beside the (first) paper it is about."""
    job = jobs.store.get(job_id)
    ids = report_papers(job, load_report(box, job).data)
    if not ids:
        raise NotFoundError(f"job {job_id}'s report cites no paper")
    return RedirectResponse(f"/papers/{ids[0]}/pages/1?report={job.id}", status_code=303)


@router.get("/jobs/{job_id}/cited.bib")
def cited(job_id: str, box: ContainerDep, jobs: JobsDep) -> Response:
    """BibTeX of the bibliography entries the report cites (resolved by grounding)."""
    job = jobs.store.get(job_id)
    text = cited_bibtex(box, job, load_report(box, job).data)
    return Response(text, media_type="application/x-bibtex; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="{job.id}-cited.bib"'})
