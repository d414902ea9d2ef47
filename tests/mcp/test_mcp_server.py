"""`papermind mcp` driven by the official MCP client, over stdio and streamable HTTP: the
tools, their page-and-line passages, the resources, and errors as MCP errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mcp.harness import TRANSPORTS, connect, data, server_env, text
from tests.support.cli import CliRunner

OLID = """OLID: offensive tweets

Introduction

We present OLID, a dataset of English tweets for offensive language identification.

The dataset contains 14,100 tweets and is released freely to the research community.

Method

We compare an SVM, a BiLSTM and a CNN on three annotation levels.
"""
RECIPES = """Personalized recipes

Introduction

We collect a novel dataset of 230K+ recipe texts and 1M+ user interactions from Food.com.

Our model personalizes recipe generation.
"""
REAL = "The dataset contains 14,100 tweets and is released freely to the research community."
INVENTED = "Our transformer reaches 97.3% accuracy on the ImageNet validation set."
TOOLS = {"search_library", "list_papers", "get_paper", "read_lines", "locate_quote",
         "verify_claim", "ask", "add_paper", "check_paper", "start_job", "job_status",
         "get_report", "export_citations"}


@pytest.fixture
def library(cli: CliRunner, tmp_path: Path, home: Path) -> dict[str, str]:
    for name, body in {"olid.txt": OLID, "recipes.txt": RECIPES}.items():
        (tmp_path / name).write_text(body, encoding="utf-8")
    added = cli("add", tmp_path / "olid.txt", tmp_path / "recipes.txt", "--json")
    assert added.code == 0, added.err
    return {Path(r["path"]).stem: r["paper_id"] for r in added.json()}


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_library_tools_cite_pages_and_lines(transport: str, library: dict[str, str],
                                                  home: Path) -> None:
    olid = library["olid"]
    async with connect(transport, server_env(home)) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert set(tools) >= TOOLS
        for tool in tools.values():  # described inputs and a structured output schema
            assert tool.description and tool.output_schema and tool.input_schema["properties"]
            assert all(p.get("description") for p in tool.input_schema["properties"].values())

        hits = data(await client.call_tool("search_library", {"query": "how many tweets"}))
        top = hits["hits"][0]
        assert top["paper_id"] == olid and "14,100" in top["text"]
        assert top["page"] == 1 and 1 <= top["line_start"] <= top["line_end"]

        lines = data(await client.call_tool("read_lines", {"paper_id": olid[:10], "page": 1}))
        by_id = {ln["id"]: ln["text"] for ln in lines["lines"]}
        real_id = next(i for i, t in by_id.items() if t.startswith("The dataset contains"))
        assert by_id[real_id] == REAL and lines["next"] is None
        assert real_id in text(await client.call_tool("read_lines", {"paper_id": olid,
                                                                      "page": 1}))

        found = data(await client.call_tool("locate_quote", {"paper_id": olid, "quote": REAL}))
        assert found["found"] and found["passage"]["text"] == REAL
        assert f"{found['passage']['page']}:{found['passage']['line_start']}" == real_id
        missing = await client.call_tool("locate_quote", {"paper_id": olid, "quote": INVENTED})
        assert not data(missing)["found"] and data(missing)["passage"] is None
        assert text(missing).startswith("not found")

        verdict = data(await client.call_tool("verify_claim", {
            "paper_id": olid, "claim": "OLID has 15,000 tweets.", "lines": real_id}))
        assert verdict["found"] and not verdict["verified"]
        assert verdict["support_by"] == "code" and not verdict["judged"]

        paper = data(await client.call_tool("get_paper", {"paper_id": olid}))
        assert [s["title"] for s in paper["outline"]][:2] == ["Introduction", "Method"]
        assert all(s["page"] == 1 and s["line"] >= 1 for s in paper["outline"])
        listed = data(await client.call_tool("list_papers", {"query": "recipes"}))
        assert [p["paper_id"] for p in listed["papers"]] == [library["recipes"]]

        resources = {str(r.uri) for r in (await client.list_resources()).resources}
        assert {f"paper://{olid}", f"paper://{library['recipes']}"} <= resources
        page = await client.read_resource(f"paper://{olid}/page/1")
        assert f"{real_id.split(':')[1]}\t{REAL}" in page.contents[0].text


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_bad_ids_and_oversized_requests_are_mcp_errors(
        transport: str, library: dict[str, str], home: Path) -> None:
    env = server_env(home)
    del env["PAPERMIND_HOME"]  # the library named by --home, as for every command
    async with connect(transport, env, home=home) as client:
        assert len(data(await client.call_tool("list_papers", {}))["papers"]) == 2
        bad = await client.call_tool("get_paper", {"paper_id": "deadbeef00"})
        assert bad.is_error and "not found: no paper" in text(bad)
        assert "deadbeef00" in text(bad) and "Traceback" not in text(bad)
        page = await client.call_tool("read_lines", {"paper_id": library["olid"], "page": 9})
        assert page.is_error and "page 9 does not exist" in text(page)

        huge = await client.call_tool("search_library", {"query": "tweets " * 5000})
        assert huge.is_error and "query" in text(huge)
        many = await client.call_tool("search_library", {"query": "tweets", "k": 10_000})
        assert many.is_error and "argument 'k'" in text(many) and "10000" in text(many)
        for wrong in (many, await client.call_tool("read_lines", {"paper_id": library["olid"],
                                                                   "page": "two"})):
            assert "pydantic" not in text(wrong) and "http" not in text(wrong), text(wrong)
            assert "validation error" not in text(wrong) and text(wrong).startswith("bad input")
        missing = await client.call_tool("read_lines", {"page": 1})
        assert text(missing) == "bad input: argument 'paper_id' is required"
        # a long range is cut to one bounded window with a cursor, never the whole paper
        window = data(await client.call_tool("read_lines", {
            "paper_id": library["olid"], "page": 1, "first_line": 2, "last_line": 100_000}))
        assert window["lines"][0]["line"] == 2 and len(window["lines"]) <= 200

        with pytest.raises(Exception, match="not found"):
            await client.read_resource("paper://deadbeef00")
