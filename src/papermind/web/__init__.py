"""The web UI: HTML pages over the same services as the API, one router per resource."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from papermind.web import account, ask, check, errors, jobs, library, papers, reader, uploads

STATIC = Path(__file__).parent / "static"


def mount(app: FastAPI) -> None:
    """Add the web UI's pages, error pages and static files to ``app``."""
    errors.install(app)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    for module in (library, uploads, papers, check, reader, ask, jobs, account):
        app.include_router(module.router)
