"""Signing in with the API token (a cookie), for servers that require one."""

from __future__ import annotations

import hmac

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from papermind.errors import NotFoundError
from papermind.i18n import available_languages
from papermind.web.pages import DOMAIN, LANGUAGE_COOKIE, render

router = APIRouter(include_in_schema=False)


@router.get("/ui/language/{code}")
def choose_language(request: Request, code: str) -> Response:
    """Remember the visitor's language (a cookie) and go back to the library."""
    if code not in available_languages(DOMAIN):
        raise NotFoundError(f"no catalogue for the language {code[:20]!r}")
    response = RedirectResponse("/", status_code=303)
    response.set_cookie(LANGUAGE_COOKIE, code, max_age=365 * 86400, samesite="lax")
    return response


@router.get("/login", response_class=HTMLResponse)
def login_form(request: Request) -> HTMLResponse:
    return render(request, "login.html")


@router.post("/login")
def login(request: Request, token: str = Form(..., max_length=1000)) -> Response:
    expected = request.app.state.settings.api.token
    if not expected:
        return RedirectResponse("/", status_code=303)  # no token needed here
    if not hmac.compare_digest(token.encode(), expected.encode()):
        return render(request, "login.html", status=401, error="wrong token")
    response = RedirectResponse("/", status_code=303)
    response.set_cookie("papermind_token", token, httponly=True, samesite="strict")
    return response
