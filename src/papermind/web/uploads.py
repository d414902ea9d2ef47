"""Uploads from the browser: several files at once, answered at once, stages shown live."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from papermind.errors import PapermindError
from papermind.services.upload_queue import Upload, UploadQueue
from papermind.services.uploads import read_limited, safe_name, sniff
from papermind.web.names import UPLOAD_STATES
from papermind.web.pages import back, gettext, render

router = APIRouter(include_in_schema=False)
MAX_FILES = 50


def get_uploads(request: Request) -> UploadQueue:
    uploads: UploadQueue = request.app.state.uploads
    return uploads


UploadsDep = Annotated[UploadQueue, Depends(get_uploads)]


def upload_json(upload: Upload) -> dict[str, Any]:
    """What the uploads page shows of one file (its script polls this)."""
    return {"id": upload.id, "name": upload.name, "state": upload.state, "done": upload.done,
            "total": upload.total, "finished": upload.finished, "paper_id": upload.paper_id,
            "title": upload.title, "reason": upload.reason, "stages": list(upload.stages),
            "href": f"/papers/{upload.paper_id}" if upload.paper_id else None}


@router.post("/ui/upload")
async def upload(request: Request, file: list[UploadFile], queue: UploadsDep) -> Response:
    limit = request.app.state.settings.api.max_upload_mb
    if len(file) > MAX_FILES:
        return back("/", f"at most {MAX_FILES} files at once")
    started: list[Upload] = []
    for one in file:
        name = one.filename or "upload"
        try:
            data = await read_limited(one, limit)
            started.append(queue.submit(data, safe_name(one.filename, sniff(data))))
        except PapermindError as err:
            started.append(queue.refused(safe_name(name, "text"), str(err)))
    if all(u.state == "failed" for u in started):
        return back("/", "; ".join(u.reason for u in started)[:300])
    return RedirectResponse("/uploads?ids=" + ",".join(u.id for u in started), status_code=303)


@router.get("/uploads", response_class=HTMLResponse)
def uploads(request: Request, queue: UploadsDep,
            ids: str = Query("", max_length=40 * MAX_FILES)) -> HTMLResponse:
    found = [queue.get(i) for i in ids.split(",") if i][:MAX_FILES]
    labels = json.dumps({k: gettext(request, v) for k, v in UPLOAD_STATES.items()})
    return render(request, "uploads.html", uploads=[upload_json(u) for u in found],
                  upload_states_json=labels)


@router.get("/ui/uploads/{upload_id}")
def upload_status(upload_id: str, queue: UploadsDep) -> dict[str, Any]:
    return upload_json(queue.get(upload_id))
