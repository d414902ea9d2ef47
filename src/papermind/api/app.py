"""The FastAPI application: papers, search, jobs, and the web UI, over one Container."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import Depends, FastAPI, Request

from papermind import __version__
from papermind.api import docs, errors, exports, jobs, ops, papers, search
from papermind.api.fair_share import FairShare, ShareLimits
from papermind.api.guards import FrontDoor, policy_for
from papermind.api.schemas import Health
from papermind.api.security import authorize, check_token
from papermind.config import Settings
from papermind.services.container import Container
from papermind.services.jobs import JobRunner
from papermind.services.upload_queue import UploadQueue
from papermind.web import mount as mount_web


def create_app(settings: Settings, *, container: Container | None = None,
               runners: dict[Any, JobRunner] | None = None, gateway: Any = None) -> FastAPI:
    """Build the app. ``runners``/``gateway`` let tests plug in a scripted model."""
    box = container or Container(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        service = box.job_service(runners, gateway=gateway)
        app.state.jobs = service
        app.state.uploads = uploads = UploadQueue(box.library, settings.api.max_waiting_uploads)
        await service.start()
        try:
            yield
        finally:
            await service.stop()
            await box.close_loop_pools()
            uploads.close()
            box.close()

    async def require_token(request: Request) -> None:
        authorize(request, settings.api.token)

    app = FastAPI(title="PaperMind", version=__version__, lifespan=lifespan,
                  description="Read, question and pre-review papers; every claim is anchored "
                              "to page and line and checked by code.",
                  dependencies=[Depends(require_token)], docs_url=None, redoc_url=None,
                  openapi_url=None)
    check_token(settings.api.token)
    app.state.container = box
    app.state.settings = settings
    errors.install(app, home=settings.home_dir)
    api = settings.api
    app.add_middleware(FairShare, limits=ShareLimits.of(api))
    app.add_middleware(FrontDoor, policy=policy_for(api.host, api.allowed_hosts, api.max_body_kb,
                                                    api.max_upload_mb, api.body_timeout_s))
    app.include_router(papers.router)
    app.include_router(search.router)
    app.include_router(exports.router)
    app.include_router(jobs.router)
    app.include_router(ops.router)
    docs.install(app)  # before the web UI, whose /static mount would hide the assets
    mount_web(app)

    @app.get("/health", tags=["meta"])
    async def health() -> Health:  # on the event loop: never waits for a worker thread
        return Health(status="ok", version=__version__)

    return app
