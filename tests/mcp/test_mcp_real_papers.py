"""The issue's check on real papers (../shared/data, skipped where absent), over stdio as a
desktop assistant drives it: hits carry page and lines, read_lines gives the paper's text
with ids, a sentence of the paper is located at its lines and an invented one is not."""

from __future__ import annotations

from pathlib import Path

from tests.mcp.harness import connect, data, server_env
from tests.support.cli import CliRunner
from tests.support.shared_data import PDF_NAMES

INVENTED = ("We further show that quantum annealing of the penguin corpus improves BLEU by "
            "seventeen points over every baseline.")


async def test_real_pdfs_over_stdio(cli: CliRunner, home: Path, shared_data: Path) -> None:
    pdfs = [shared_data / "pdfs" / "science_parse" / f"{name}.pdf" for name in PDF_NAMES[:3]]
    added = cli("add", *pdfs, "--json")
    assert added.code == 0, added.err
    ids = [row["paper_id"] for row in added.json()]
    async with connect("stdio", server_env(home)) as client:
        window = data(await client.call_tool("read_lines", {"paper_id": ids[1], "page": 2,
                                                            "first_line": 10, "last_line": 30}))
        assert [ln["id"] for ln in window["lines"]] == [f"2:{n}" for n in range(10, 31)]
        assert window["next"] == {"paper_id": ids[1], "page": 2, "first_line": 31}
        following = data(await client.call_tool("read_lines", window["next"]))  # sent back as is
        assert following["lines"][0]["id"] == "2:31"
        long_lines = [ln for ln in window["lines"] if len(ln["text"].split()) >= 8]
        first, second = long_lines[0], long_lines[1]
        quote = first["text"]

        located = data(await client.call_tool("locate_quote", {"paper_id": ids[1],
                                                               "quote": quote}))
        assert located["found"], located
        spot = located["passage"]
        assert (spot["page"], spot["line_start"]) == (2, first["line"])
        assert spot["text"] == quote
        invented = data(await client.call_tool("locate_quote", {"paper_id": ids[1],
                                                                "quote": INVENTED}))
        assert not invented["found"] and invented["nearest"] is not None

        hits = data(await client.call_tool("search_library", {"query": second["text"]}))
        assert hits["hits"], "no hit for a line of the paper"
        for h in hits["hits"]:  # a span across a page break ends on page_end
            assert h["page"] >= 1 and h["line_start"] >= 1 and h["line_end"] >= 1
            assert (h["page_end"] or h["page"]) > h["page"] or h["line_end"] >= h["line_start"]
        assert any(h["paper_id"] == ids[1] and h["page"] == 2 for h in hits["hits"][:3])
