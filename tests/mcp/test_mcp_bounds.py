"""MCP stays in its folders: add_paper reads only under the allowed folders (links resolved
first), and a request has a size limit (a stdio line, an HTTP body)."""

from __future__ import annotations

import io
from pathlib import Path

import httpx
import pytest
from mcp import Client

from papermind.config import McpSettings, SearchSettings, Settings
from papermind.mcp.request_bounds import relay_lines
from papermind.mcp.server import build_server
from tests.mcp.harness import http_server, server_env, text
from tests.mcp.test_mcp_server import OLID


async def _add(settings: Settings, path: Path) -> tuple[bool, str]:
    server = build_server(settings)
    try:
        async with Client(server) as client:
            result = await client.call_tool("add_paper", {"path_or_identifier": str(path)})
            return bool(result.is_error), text(result)
    finally:
        await server.rt.close()


def _settings(home: Path, folders: list[Path] | None = None) -> Settings:
    return Settings(home=home, search=SearchSettings(embedder="hashing"),
                    mcp=McpSettings(add_folders=folders or []))


async def test_a_symlinked_txt_pointing_outside_is_refused(tmp_path: Path) -> None:
    inbox, secret = tmp_path / "inbox", tmp_path / "private" / "passwd"
    inbox.mkdir()
    secret.parent.mkdir()
    secret.write_text("root:x:0:0:hunter2\n", encoding="utf-8")
    (inbox / "paper.txt").symlink_to(secret)
    refused, said = await _add(_settings(tmp_path / "home", [inbox]), inbox / "paper.txt")
    assert refused and "outside the folders" in said and "hunter2" not in said
    dotted, said = await _add(_settings(tmp_path / "home", [inbox]),
                              inbox / ".." / "private" / "passwd.txt")
    assert dotted


async def test_by_default_only_the_import_folder_is_read(tmp_path: Path) -> None:
    home = tmp_path / "home"
    outside = tmp_path / "olid.txt"
    outside.write_text(OLID, encoding="utf-8")
    refused, said = await _add(_settings(home), outside)
    assert refused and str(home / "import") in said
    (home / "import").mkdir(parents=True)
    inside = home / "import" / "olid.txt"
    inside.write_text(OLID, encoding="utf-8")
    refused, said = await _add(_settings(home), inside)
    assert not refused, said


def test_an_overlong_stdio_line_is_dropped_unread() -> None:
    lines = b'{"a": 1}\n' + b"x" * 1_000_000 + b'\n{"b": 2}\n' + b"y" * 5000
    sink = io.BytesIO()
    assert relay_lines(io.BytesIO(lines), sink, max_bytes=1024) == 2
    assert sink.getvalue() == b'{"a": 1}\n{"b": 2}\n'


@pytest.mark.parametrize("declared", [True, False])
async def test_an_http_body_past_the_limit_is_a_413(tmp_path: Path, declared: bool) -> None:
    env = server_env(tmp_path / "home", PAPERMIND_MCP__MAX_REQUEST_KB="16")
    body = b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "pad": "' + b"x" * 40_000 + b'"}'
    async with http_server(env) as url:
        content = body if declared else iter([body[:20_000], body[20_000:]])
        answer = httpx.post(url, content=content, headers={
            "Content-Type": "application/json", "Accept": "application/json, text/event-stream"})
    assert answer.status_code == 413


def test_the_stdio_server_answers_after_an_overlong_line(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    env = server_env(tmp_path / "home", PAPERMIND_MCP__MAX_REQUEST_KB="64")
    hello = {"jsonrpc": "2.0", "id": 7, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"}}}
    stdin = b'{"jsonrpc": "2.0", "id": 1, "method": "' + b"x" * 3_000_000 + b'"}\n'
    stdin += json.dumps(hello).encode() + b"\n"
    run = subprocess.run([sys.executable, "-m", "papermind", "mcp"], input=stdin, env=env,
                         capture_output=True, timeout=120)
    answers = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    assert [a.get("id") for a in answers] == [7], run.stderr[-2000:]
    assert b"longer than 65536 bytes" in run.stderr


@pytest.mark.parametrize("page", ["²", "٣", "1e3", "9999999"])
async def test_a_page_that_is_not_a_number_is_a_clear_error(tmp_path: Path, page: str) -> None:
    home = tmp_path / "home"
    (home / "import").mkdir(parents=True)
    paper = home / "import" / "olid.txt"
    paper.write_text(OLID, encoding="utf-8")
    server = build_server(_settings(home))
    try:
        async with Client(server) as client:
            added = await client.call_tool("add_paper", {"path_or_identifier": str(paper)})
            paper_id = added.structured_content["paper_id"]  # type: ignore[index]
            with pytest.raises(Exception, match="not a page number") as err:
                await client.read_resource(f"paper://{paper_id}/page/{page}")
            assert "internal" not in str(err.value).lower()
    finally:
        await server.rt.close()
