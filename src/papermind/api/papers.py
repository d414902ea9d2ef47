"""/api/papers: upload (size and content checked), list, get, delete, page images, verify,
check."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, UploadFile
from fastapi.responses import Response
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from papermind.api.deps import ContainerDep, SettingsDep
from papermind.api.references import ReferencesOut
from papermind.api.schemas import (
    CheckResult,
    PaperDetail,
    PaperRecordOut,
    Removed,
    Uploaded,
    Verification,
)
from papermind.errors import IngestError
from papermind.services.checking import check_stored_json, served_scholarly_check
from papermind.services.scholar import require_served_online
from papermind.services.uploads import read_limited, safe_name, sniff
from papermind.services.verification import verify, verify_json

router = APIRouter(prefix="/api/papers", tags=["papers"])

def _record(record: Any) -> PaperRecordOut:
    return PaperRecordOut.model_validate(record.model_dump(mode="json", exclude={"file"}))


@router.post("", status_code=201, summary="Upload a PDF, text or Markdown paper")
async def upload(file: UploadFile, container: ContainerDep, settings: SettingsDep) -> Uploaded:
    data = await read_limited(file, settings.api.max_upload_mb)
    result = await run_in_threadpool(container.library.add_bytes, data,
                                     safe_name(file.filename, sniff(data)))
    if result.status == "failed":
        raise IngestError(result.reason or "the file could not be read")
    return Uploaded(id=result.paper_id, title=result.title, status=result.status)


@router.get("", summary="List the library, newest first; X-Total-Count holds the number of papers")
def list_papers(container: ContainerDep, response: Response,
                limit: int = Query(100, ge=1, le=1000),
                offset: int = Query(0, ge=0, le=2**62, description="papers to skip (for the next page)"),
                ) -> list[PaperRecordOut]:
    response.headers["X-Total-Count"] = str(container.library.count())
    return [_record(r) for r in container.library.list(limit=limit, offset=offset)]


@router.get("/{paper_id}", summary="One paper: record and full structure")
def get_paper(paper_id: str, container: ContainerDep) -> PaperDetail:
    stored = container.library.show(paper_id)
    return PaperDetail(record=_record(stored.record), paper=stored.paper)


@router.delete("/{paper_id}", summary="Remove a paper, its file and its index entries")
def delete_paper(paper_id: str, container: ContainerDep) -> Removed:
    removed = container.remove_paper(paper_id)
    return Removed(removed=_record(removed))


@router.get("/{paper_id}/pages/{number}.png", summary="A page rendered as PNG",
            response_class=Response, responses={200: {"content": {"image/png": {}}}})
async def page_image(paper_id: str, number: Annotated[int, Path(ge=1, le=100_000)], container: ContainerDep,
                     scale: float = Query(1.5, ge=0.25, le=4.0)) -> Response:
    png = await run_in_threadpool(container.page_images.png, paper_id, number, scale)
    return Response(png, media_type="image/png", headers={"Cache-Control": "max-age=3600"})


class VerifyRequest(BaseModel):
    """A claim and what it cites: line ids, a quote, or both."""

    claim: str = Field(min_length=1, max_length=4000, description="the claim to check")
    lines: str = Field(default="", max_length=200,
                       description="cited line ids, e.g. '3:12-14' or '3:40-4:2'")
    quote: str = Field(default="", max_length=4000, description="a quote of the paper")


@router.post("/{paper_id}/verify", summary="Check a claim against a paper's cited lines "
             "(code checks: found, and support lowered when numbers, names, negation or "
             "direction disagree)")
async def verify_claim(paper_id: str, body: VerifyRequest,
                       container: ContainerDep) -> Verification:
    paper = container.library.show(paper_id).paper
    result = await run_in_threadpool(verify, paper, body.claim, lines=body.lines,
                                     quote=body.quote, grounder=container.grounder)
    return Verification.model_validate(verify_json(result))


@router.get("/{paper_id}/references", summary="Check the paper's bibliography against the "
            "scholarly sources (needs scholar.enabled; answers are cached in the library)")
async def check_references(paper_id: str, container: ContainerDep,
                           online: bool = Query(False, description="check against the "
                                                "scholarly sources (as check's online=true: "
                                                "needs scholar.enabled on the server)"),
                           ) -> ReferencesOut:
    require_served_online(container.settings.scholar)  # online=true cannot override it
    report = await run_in_threadpool(container.references.check, paper_id, files=False)
    return ReferencesOut.model_validate(report.to_json())


@router.get("/{paper_id}/check", summary="The model-free pre-submission check of a stored paper "
            "(numbers vs tables, citations, missing labels, instructions to reviewers, acronyms; "
            "anonymity and venue requirements on request)")
async def check_paper(paper_id: str, container: ContainerDep,
                      venue: str | None = Query(None, max_length=40,
                                                description="neurips, iclr, acl..."),
                      anonymous: bool = Query(False, description="double-blind checks too"),
                      online: bool = Query(False, description="also check the bibliography "
                                           "against the scholarly sources: needs "
                                           "scholar.enabled on the server (409 otherwise, "
                                           "nothing sent); on anyway when it is set"),
                      ) -> CheckResult:
    references = served_scholarly_check(container, online)
    paper = container.library.show(paper_id).paper
    result = await run_in_threadpool(check_stored_json, paper, venue=venue, anonymous=anonymous,
                                     references=references)
    return CheckResult.model_validate(result)
