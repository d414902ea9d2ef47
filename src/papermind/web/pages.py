"""What every web page shares: the templates, the layout's values, and the form redirects.

Every page extends ``base.html`` (header, navigation, readable column, dark mode). UI strings
are marked with ``_()`` for the ``web`` message catalogue (jinja2.ext.i18n).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader, select_autoescape

from papermind.reports import install
from papermind.services.container import Container
from papermind.services.jobs import JobService
from papermind.web.names import install_names

HERE = Path(__file__).parent
_env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(),
                   extensions=["jinja2.ext.i18n"])
_env.install_null_translations(newstyle=True)  # type: ignore[attr-defined]
install(_env)  # evidence renders the one way (papermind.reports) in every page
install_names(_env)
templates = Jinja2Templates(env=_env)


def get_container(request: Request) -> Container:
    container: Container = request.app.state.container
    return container


def get_jobs(request: Request) -> JobService:
    jobs: JobService = request.app.state.jobs
    return jobs


ContainerDep = Annotated[Container, Depends(get_container)]
JobsDep = Annotated[JobService, Depends(get_jobs)]


def back(path: str, error: str) -> RedirectResponse:
    """Back to the form at ``path`` with the error shown at its top."""
    return RedirectResponse(f"{path}?error={quote(error[:300])}", status_code=303)


def gettext(request: Request, message: str) -> str:
    """``message`` in the request's language (the ``web`` catalogue)."""
    return message


def render(request: Request, name: str, status: int = 200, **values: Any) -> HTMLResponse:
    """The page ``name`` in the layout; ``error`` (a form's problem) shows at the top."""
    values.setdefault("error", request.query_params.get("error"))
    return templates.TemplateResponse(request, name, values, status_code=status)
