"""Settings that mean what they say: the token guards the OpenAPI document and the docs,
a blank token is refused, /readyz never echoes an endpoint's credentials."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from papermind.api.app import create_app
from papermind.config import EndpointSettings, LLMSettings, load_settings
from papermind.errors import ConfigError
from papermind.hosts import redact
from tests.api.server import serve
from tests.scholar.hostile_server import HostileServer


def test_the_openapi_document_and_docs_need_the_token(home: Path) -> None:
    settings = load_settings(home)
    settings = settings.model_copy(update={"api": settings.api.model_copy(
        update={"token": "s3cret"})})
    with serve(create_app(settings)) as base, httpx.Client(base_url=base) as http:
        for path in ("/openapi.json", "/docs", "/redoc"):
            assert http.get(path).status_code == 401, path
        auth = {"Authorization": "Bearer s3cret"}
        assert "/api/papers" in http.get("/openapi.json", headers=auth).json()["paths"]
        assert http.get("/docs", headers=auth).status_code == 200
        assert http.get("/health").status_code == 200


@pytest.mark.parametrize("blank", ["", " ", "\t \n"])
def test_a_blank_token_is_refused(home: Path, blank: str) -> None:
    settings = load_settings(home)
    settings = settings.model_copy(update={"api": settings.api.model_copy(
        update={"token": blank})})
    with pytest.raises(ConfigError, match="blank"):
        create_app(settings)


def test_serve_refuses_a_blank_token_off_loopback(home: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PAPERMIND_API__TOKEN"}
    done = subprocess.run([sys.executable, "-m", "papermind", "serve", "--host", "0.0.0.0",
                           "--port", "1", "--token", " "], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 4, done.stderr
    assert "blank" in done.stderr and "Traceback" not in done.stderr


def test_readyz_never_echoes_endpoint_credentials(home: Path) -> None:
    endpoint = HostileServer({})  # answers 404 to everything
    try:
        port = endpoint.base_url.rsplit(":", 1)[1]
        lab = EndpointSettings(provider="openai", model="m",
                               base_url=f"http://alice:hunter2@127.0.0.1:{port}/v1?api-key=k3y")
        settings = load_settings(home).model_copy(update={"llm": LLMSettings(
            endpoints={"lab": lab})})
        with serve(create_app(settings)) as base, httpx.Client(base_url=base) as http:
            down = http.get("/readyz")
    finally:
        endpoint.stop()
    assert down.status_code == 503 and endpoint.requests  # it was asked, and it failed
    assert "hunter2" not in down.text and "k3y" not in down.text and "alice" not in down.text
    assert "HTTP 404" in down.json()["checks"]["model:lab"]["detail"]


@pytest.mark.parametrize(("text", "shown"), [
    ("http://u:p@h/v1", "http://***@h/v1"),
    ("GET https://h/x?api-key=abc&q=1", "GET https://h/x?api-key=***&q=1"),
    ("https://h/x?access_token=t#f", "https://h/x?access_token=***#f"),
    ("https://h/x?page=2", "https://h/x?page=2")])
def test_redact(text: str, shown: str) -> None:
    assert redact(text) == shown
