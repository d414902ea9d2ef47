"""What every web page shares: the templates, the layout's values, and the form redirects.

Every page extends ``base.html`` (header, navigation, readable column, dark mode). UI strings
are ``_("English text {name}", name=...)`` in the templates (jinja2.ext.i18n), translated by
the ``web`` catalogue (papermind.i18n) into the visitor's language.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader, select_autoescape

from papermind.i18n import (
    AUTO,
    LanguageError,
    Translator,
    available_languages,
    negotiate,
    translator,
)
from papermind.i18n.catalog import SOURCE_LANGUAGE
from papermind.reports import install
from papermind.web.names import install_names

HERE = Path(__file__).parent
DOMAIN = "web"
LANGUAGE_COOKIE = "papermind_lang"
LANGUAGE_NAMES = {"en": "English", "zh": "中文"}
"""Each language by its own name, for the switch in the header."""
_env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(),
                   extensions=["jinja2.ext.i18n"])
# English by default; each page gets its visitor's language as ``_`` (see ``render``)
_env.install_gettext_callables(  # type: ignore[attr-defined]
    translator(DOMAIN, SOURCE_LANGUAGE), translator(DOMAIN, SOURCE_LANGUAGE).n)
install(_env)  # evidence renders the one way (papermind.reports) in every page
install_names(_env)
templates = Jinja2Templates(env=_env)


def back(path: str, error: str) -> RedirectResponse:
    """Back to the form at ``path`` with the error shown at its top."""
    return RedirectResponse(f"{path}?error={quote(error[:300])}", status_code=303)


def language(request: Request) -> str:
    """The visitor's language: their choice (cookie), else the ``api.language`` setting,
    else the browser's Accept-Language; English when none has a catalogue."""
    setting = request.cookies.get(LANGUAGE_COOKIE) or request.app.state.settings.api.language
    try:
        return negotiate(setting, request.headers.get("accept-language"), domain=DOMAIN)
    except LanguageError:
        return negotiate(AUTO, request.headers.get("accept-language"), domain=DOMAIN)


def translate(request: Request) -> Translator:
    """The ``web`` catalogue's gettext in the visitor's language."""
    return translator(DOMAIN, language(request))


def gettext(request: Request, message: str, **values: object) -> str:
    """``message`` in the visitor's language."""
    return translate(request)(message, **values)


def render(request: Request, name: str, status: int = 200, **values: Any) -> HTMLResponse:
    """The page ``name`` in the layout and the visitor's language; ``error`` (a form's
    problem) shows at the top."""
    values.setdefault("error", request.query_params.get("error"))
    t = translate(request)
    values.update({"_": t, "gettext": t, "ngettext": t.n, "lang": t.language,
                   "languages": available_languages(DOMAIN), "language_names": LANGUAGE_NAMES})
    return templates.TemplateResponse(request, name, values, status_code=status)
