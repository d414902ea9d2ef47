"""The tools that need the process itself: `ask` on a scripted model (the CLI's seam),
`ask` with no model at all, `add_paper`'s limits, and the HTTP transport's token."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from papermind.config import EndpointSettings, LLMSettings, McpSettings, SearchSettings, Settings
from papermind.llm.testing import fake_gateway
from papermind.mcp.server import build_server
from papermind.services import model_setup, qa
from tests.cli.test_ask import cite_first_with
from tests.mcp.harness import data, http_server, server_env, text
from tests.mcp.test_mcp_server import OLID
from tests.support.cli import CliRunner
from tests.workflows.deep_qa.fakes import judge

DRAFT = Path(__file__).parents[1] / "grounding" / "check_fixtures" / "draft.md"
ENDPOINT = EndpointSettings(base_url="http://127.0.0.1:9/v1", model="unused")


def settings(home: Path, *, model: bool = True, reader: str | None = None) -> Settings:
    llm = LLMSettings(endpoints={"default": ENDPOINT} if model else {})
    return Settings(home=home, llm=llm, search=SearchSettings(embedder="hashing"),
                    mcp=McpSettings(reader_url=reader, add_folders=[home.parent, DRAFT.parent]))


@asynccontextmanager
async def session(home: Path, *, model: bool = True,
                  reader: str | None = None) -> AsyncIterator[Client]:
    server = build_server(settings(home, model=model, reader=reader))
    try:
        async with Client(server) as client:
            yield client
    finally:
        await server.rt.close()


async def add(client: Client, tmp_path: Path) -> str:
    paper = tmp_path / "olid.txt"
    paper.write_text(OLID, encoding="utf-8")
    added = data(await client.call_tool("add_paper", {"path_or_identifier": str(paper)}))
    assert added["status"] == "added" and added["pages"] == 1
    return str(added["paper_id"])


async def test_ask_answers_with_cited_passages(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    gateway = fake_gateway({"distiller": [{"quotes": []}],
                            "answerer": [cite_first_with("14,100")], "checker": [judge()]})
    monkeypatch.setattr(qa, "gateway_for", lambda container: gateway)
    async with session(tmp_path / "home") as client:
        paper_id = await add(client, tmp_path)
        result = await client.call_tool("ask", {"question": "How many tweets are in OLID?",
                                                "paper_ids": [paper_id[:10]]})
        answer = data(result)
    assert answer["status"] == "answered"
    [sentence] = answer["sentences"]
    [citation] = sentence["citations"]
    assert citation["verified"] and citation["passage"]["paper_id"] == paper_id
    assert "14,100" in citation["passage"]["text"] and citation["passage"]["page"] == 1
    assert f"p. 1, l. {citation['passage']['line_start']}" in text(result)


async def test_passages_link_to_the_web_reader_when_its_url_is_set(tmp_path: Path) -> None:
    async with session(tmp_path / "home", reader="http://127.0.0.1:8765/") as client:
        paper_id = await add(client, tmp_path)
        located = data(await client.call_tool("locate_quote", {
            "paper_id": paper_id, "quote": "The dataset contains 14,100 tweets"}))
        info = data(await client.call_tool("get_paper", {"paper_id": paper_id}))
    spot = located["passage"]
    assert spot["link"] == (f"http://127.0.0.1:8765/papers/{paper_id}/pages/1"
                            f"?lines={spot['line_start']}-{spot['line_end']}")
    assert info["link"] == f"http://127.0.0.1:8765/papers/{paper_id}"


async def test_ask_without_any_model_is_a_clear_error(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(model_setup, "local_status", lambda *_: (False, "not installed"))
    async with session(tmp_path / "home", model=False) as client:
        result = await client.call_tool("ask", {"question": "How many tweets?"})
    assert result.is_error
    assert "not configured: no LLM endpoint is configured" in text(result)


async def test_add_paper_stores_papers_only_and_never_returns_the_file(tmp_path: Path) -> None:
    secret = tmp_path / "notes.cfg"
    secret.write_text("password = hunter2\n", encoding="utf-8")
    async with session(tmp_path / "home") as client:
        await add(client, tmp_path)
        again = await client.call_tool("add_paper", {"path_or_identifier": str(tmp_path / "olid.txt")})
        assert data(again)["status"] == "exists"
        assert "14,100" not in text(again) and "14,100" not in str(again.structured_content)
        for target in (str(secret), "olid.txt", "10.1145/3292500.3330701",
                       str(tmp_path / "missing.pdf")):
            refused = await client.call_tool("add_paper", {"path_or_identifier": target})
            assert refused.is_error and "hunter2" not in text(refused), target
        assert ".pdf, .txt or .md" in text(await client.call_tool(
            "add_paper", {"path_or_identifier": str(secret)}))


async def test_export_citations_writes_each_format_and_refuses_an_unknown_one(
        tmp_path: Path) -> None:
    async with session(tmp_path / "home") as client:
        paper_id = await add(client, tmp_path)
        bib = data(await client.call_tool("export_citations", {"format": "bibtex"}))
        assert bib["count"] == 1 and bib["complete"] and bib["text"].lstrip().startswith("@")
        ris = data(await client.call_tool("export_citations", {"format": "ris",
                                                               "paper_ids": [paper_id[:8]]}))
        assert ris["media_type"] == "application/x-research-info-systems"
        assert ris["count"] == 1 and "TY  -" in ris["text"]
        refused = await client.call_tool("export_citations", {"format": "endnote"})
        assert refused.is_error and "unknown format 'endnote' (use bibtex, csl-json, ris)" in text(refused)


async def test_http_needs_its_token_when_one_is_set(tmp_path: Path) -> None:
    env = server_env(tmp_path / "home")
    async with http_server(env, "--token", "s3cret") as url:
        assert httpx.post(url, json={}).status_code == 401
        wrong = httpx.post(url, json={}, headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401 and wrong.json() == {"error": "missing or wrong API token"}
        with_token = httpx2.AsyncClient(headers={"Authorization": "Bearer s3cret"})
        async with with_token, Client(streamable_http_client(url, http_client=with_token)) as client:
            assert len((await client.list_tools()).tools) >= 6


def test_off_loopback_needs_a_token(cli: CliRunner) -> None:
    refused = cli("mcp", "--http", "--host", "0.0.0.0")
    assert refused.code == 4 and "needs an API token" in refused.err


def test_a_long_outline_is_cut_to_the_budget() -> None:
    from papermind.mcp.results import OutlineEntry, PaperInfo
    from papermind.mcp.views import fit

    heading = OutlineEntry(section_id="s1", number="1", title="A heading " * 10, level=1,
                           kind="other", page=1, line=1)
    info = PaperInfo(paper_id="f" * 64, title="t", authors=[], year=None, pages=1,
                     source_type="pdf", added_at="2026-01-01T00:00:00", abstract="", doi=None,
                     arxiv=None, tags=[], collections=[], outline=[heading] * 200, tables=[],
                     equations=[], truncated=False)
    small = fit(info, 5000)
    assert len(small.model_dump_json()) <= 5000 and small.truncated
    assert 0 < len(small.outline) < 200


def test_without_the_sdk_the_command_says_which_extra_to_install(tmp_path: Path) -> None:
    code = ("import sys; sys.modules['mcp'] = None\n"
            "from papermind.cli.app import main\n"
            "sys.argv = ['papermind', 'mcp']\n"
            "main()\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, env=server_env(tmp_path / "home"))
    assert run.returncode == 4
    assert "the MCP SDK is not installed (pip install 'papermind[mcp]')" in run.stderr


async def test_check_paper_gives_findings_with_pages_lines_and_the_papers_text(
        tmp_path: Path) -> None:
    async with session(tmp_path / "home", model=False) as client:
        added = data(await client.call_tool("add_paper", {"path_or_identifier": str(DRAFT)}))
        paper_id = added["paper_id"]
        result = await client.call_tool("check_paper", {"paper_id": paper_id[:10]})
        blind = data(await client.call_tool("check_paper", {
            "paper_id": paper_id, "venue": "acl", "anonymous": True}))
        bad_venue = await client.call_tool("check_paper", {"paper_id": paper_id,
                                                           "venue": "nowhere"})
        gone = await client.call_tool("check_paper", {"paper_id": "feedface00"})
    out = data(result)
    assert out["paper_id"] == paper_id and not out["anonymous"] and not out["truncated"]
    missing = next(f for f in out["findings"] if f["kind"] == "citation_without_entry")
    spot = missing["passage"]
    assert (spot["paper_id"], spot["page"], spot["line_start"]) == (paper_id, 1, 13)
    assert "Vellacott" in spot["text"] and missing["severity"] == "medium"  # calibrated
    assert "p. 1, l. 13  citation_without_entry" in text(result)
    assert out["counts"]["high"] >= 2 and out["findings"][0]["severity"] == "high"
    assert not any(f["aspect"] == "anonymity" for f in out["findings"])
    assert blind["venue"] == "acl" and any(f["kind"] == "self_identifying"
                                           for f in blind["findings"])
    assert bad_venue.is_error and "bad input: unknown venue" in text(bad_venue)
    assert gone.is_error and "not found: no paper" in text(gone)


def test_a_long_check_is_cut_to_the_budget(tmp_path: Path) -> None:
    from papermind.domain import Anchor
    from papermind.domain.check import CheckFinding, CheckReport
    from papermind.mcp.runtime import Runtime
    from papermind.mcp.views import check_out

    finding = CheckFinding(kind="acronym_undefined", severity="low", aspect="presentation",
                           message="XYZ is used before it is defined " * 20, text="t " * 500,
                           anchor=Anchor(paper_id="f" * 64, page=1, line_start=2, line_end=2))
    report = CheckReport(paper_id="f" * 64, findings=[finding] * 200)
    rt = Runtime(Settings(home=tmp_path, mcp=McpSettings(max_result_chars=5000)))
    out = check_out(rt, report)
    assert len(out.model_dump_json()) <= 5000 and out.truncated
    assert 0 < len(out.findings) < 200 and out.counts["low"] == 200
    assert out.findings[0].passage is not None and len(out.findings[0].passage.text) <= 400
