"""FastAPI dependencies: the process's container and job service."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from papermind.config import Settings
from papermind.services.container import Container
from papermind.services.jobs import JobService


def get_container(request: Request) -> Container:
    container: Container = request.app.state.container
    return container


def get_jobs(request: Request) -> JobService:
    jobs: JobService = request.app.state.jobs
    return jobs


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


ContainerDep = Annotated[Container, Depends(get_container)]
JobsDep = Annotated[JobService, Depends(get_jobs)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
