"""/api/export: the library, or a selection of it, in a bibliographic format."""

from __future__ import annotations

from fastapi import APIRouter, Query
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from papermind.api.deps import ContainerDep
from papermind.services.export_formats import EXPORT_FORMATS, FORMATS, format_names

router = APIRouter(prefix="/api", tags=["export"])
_MEDIA = {f.media_type: {"schema": {"type": "string"}} for f in EXPORT_FORMATS.values()}


@router.get("/export", summary=f"The library (or a selection) as {format_names()}; a download",
            response_class=Response,
            responses={200: {"content": _MEDIA,
                             "description": "the entries, as a file download"},
                       400: {"description": "an unknown format (a problem response naming "
                                            "the known ones), or a filter matching no paper"}})
async def export(container: ContainerDep,
                 fmt: str = Query("bibtex", alias="format", description=f"one of {', '.join(FORMATS)}",
                                     json_schema_extra={"enum": list(FORMATS)}),
                 paper: list[str] | None = Query(None, description="paper ids or prefixes"),
                 tag: list[str] | None = Query(None, description="only papers with every tag"),
                 collection: list[str] | None = Query(
                     None, description="only papers in every collection (or below)"),
                 ) -> Response:
    done = await run_in_threadpool(container.exports.export, fmt, papers=paper or (),
                                   tags=tag or (), collections=collection or ())
    return Response(done.text, media_type=f"{done.format.media_type}; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{done.filename}"',
                             "X-Total-Count": str(len(done.works))})
