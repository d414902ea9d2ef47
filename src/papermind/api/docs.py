"""The API's documentation pages, /docs (Swagger UI) and /redoc, served from the installation.

FastAPI's defaults load their scripts from a CDN, so the pages are blank offline. The
scripts and styles come from the ``fastapi-offline`` package (MIT; it ships the
swagger-ui-dist and ReDoc bundles), mounted at ``ASSETS``; nothing is fetched at run time.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

ASSETS = "/static/api-docs"
"""Where the bundled Swagger UI and ReDoc files are served."""


def asset_dir() -> Path:
    """The folder of the installed Swagger UI and ReDoc bundles."""
    return Path(str(files("fastapi_offline") / "static"))


def install(app: FastAPI) -> None:
    """Serve /openapi.json, /docs and /redoc with local assets (build the app with
    docs_url=None, redoc_url=None, openapi_url=None so FastAPI's own routes, which skip the
    app's dependencies, are not registered: these ones need the API token when one is set)."""
    app.mount(ASSETS, StaticFiles(directory=str(asset_dir())), name="api-docs")
    title = f"{app.title} API"
    openapi_url = "/openapi.json"

    @app.get(openapi_url, include_in_schema=False)
    def openapi() -> JSONResponse:
        return JSONResponse(app.openapi())

    @app.get("/docs", include_in_schema=False)
    def swagger_ui() -> HTMLResponse:
        return get_swagger_ui_html(openapi_url=openapi_url, title=title,
                                   swagger_js_url=f"{ASSETS}/swagger-ui-bundle.js",
                                   swagger_css_url=f"{ASSETS}/swagger-ui.css",
                                   swagger_favicon_url=f"{ASSETS}/favicon.png")

    @app.get("/redoc", include_in_schema=False)
    def redoc() -> HTMLResponse:
        return get_redoc_html(openapi_url=openapi_url, title=title,
                              redoc_js_url=f"{ASSETS}/redoc.standalone.js",
                              redoc_favicon_url=f"{ASSETS}/favicon.png",
                              with_google_fonts=False)
