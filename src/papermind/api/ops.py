"""Operating endpoints: ``GET /metrics`` (Prometheus text) and ``GET /readyz``."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, PlainTextResponse

from papermind.services import metrics
from papermind.services.readiness import readiness

router = APIRouter(tags=["meta"])
PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8"


@router.get("/metrics", summary="Prometheus metrics: jobs, queue, model calls, refusals, search",
            response_class=PlainTextResponse)
async def get_metrics(request: Request) -> PlainTextResponse:
    db = request.app.state.container.db
    text = await asyncio.to_thread(metrics.render, db)
    return PlainTextResponse(text, media_type=PROMETHEUS_TEXT)


@router.get("/readyz", summary="Ready when the database, the job store and the configured "
            "model endpoints answer; otherwise 503 naming what is down")
async def get_readyz(request: Request) -> JSONResponse:
    box = request.app.state.container
    checks = await readiness(box.db, request.app.state.settings)
    down = [c.name for c in checks if not c.ok]
    body: dict[str, Any] = {
        "status": "ready" if not down else "not ready", "down": down,
        "checks": {c.name: {"ok": c.ok, "detail": c.detail} for c in checks}}
    return JSONResponse(body, status_code=503 if down else 200)
