"""`papermind locate PAPER QUOTE` through the real entry point."""

from __future__ import annotations

from pathlib import Path

from tests.cli.pdf_factory import paper_pdf
from tests.support.cli import CliRunner, library_state

JSON_KEYS = {"found", "verified", "status", "support", "score", "method", "text", "anchor",
             "quote", "lines", "reasons", "notes"}


def pdf(tmp_path: Path) -> Path:
    return Path(str(paper_pdf(tmp_path / "paper.pdf", "Storing Small Papers")))


def test_a_file_is_located_without_being_stored(cli: CliRunner, home: Path,
                                                tmp_path: Path) -> None:
    result = cli("locate", pdf(tmp_path), "parsed, stored and indexed in one unit", "--json")
    assert result.code == 0, result.err
    out = result.json()
    assert set(out) >= JSON_KEYS
    assert (out["found"], out["verified"], out["method"], out["score"]) == (True, False, "exact", 1.0)
    assert out["status"] == "found · support unchecked"  # code alone never says 'supported'
    assert out["support"] == {"verdict": "unchecked", "by": "", "reason": ""}
    anchor = out["anchor"]
    line = anchor["line_start"]
    assert anchor["page"] == 1 and anchor["line_end"] == line and anchor["page_end"] == 1
    assert anchor["label"] == f"p. 1, l. {line}"
    [box] = anchor["boxes"]
    assert box["page"] == 1 and box["x0"] < box["x1"] and box["y0"] < box["y1"]
    assert out["lines"] == [{"page": 1, "n": line,
                             "text": "Each file is parsed, stored and indexed in one unit of work."}]
    assert library_state(home) == ([], [])


def test_human_output_names_page_lines_and_score(cli: CliRunner, tmp_path: Path) -> None:
    result = cli("locate", pdf(tmp_path), "Libraries keep papers keyed by the hash")
    assert result.code == 0, result.err
    text = " ".join(result.out.split())
    assert "found · support unchecked" in text and "verified" not in text
    assert "score 1.00" in text and "method exact" in text
    assert "Libraries keep papers keyed by the hash of their bytes [1]." in text
    assert "p. 1, l." in text


def test_not_found_exits_1_with_a_null_anchor(cli: CliRunner, tmp_path: Path) -> None:
    paper = pdf(tmp_path)
    result = cli("--json", "locate", paper, "Transformers replaced recurrent networks everywhere")
    assert result.code == 1
    out = result.json()
    assert (out["found"], out["verified"], out["anchor"], out["method"]) == (False, False, None, "none")
    human = cli("locate", paper, "Transformers replaced recurrent networks everywhere")
    assert human.code == 1 and "Not found" in human.out


def test_an_altered_quote_is_found_but_not_verified(cli: CliRunner, tmp_path: Path) -> None:
    result = cli("locate", pdf(tmp_path), "Each file is parsed, stored and indexed in two units of work",
                 "--json")
    assert result.code == 0
    out = result.json()
    assert out["found"] and not out["verified"] and out["method"] == "fuzzy"
    assert out["anchor"] is not None and 0.75 <= out["score"] < 1
    assert any("wording differs" in r for r in out["reasons"])
    assert out["support"]["verdict"] == "not_enough" and out["support"]["by"] == "code"


def test_a_stored_paper_by_id_prefix_and_a_claim(cli: CliRunner, tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("Widget study\n\nWe measured a throughput of 84.7% on WidgetBench.\n")
    added = cli("add", notes, "--json")
    assert added.code == 0, added.err
    paper_id = added.json()[0]["paper_id"]
    result = cli("locate", paper_id[:10], "a throughput of 84.7%", "--claim",
                 "Throughput is 91% on WidgetBench", "--json")
    assert result.code == 0, result.err
    out = result.json()
    assert out["found"] and not out["verified"] and out["anchor"]["line_start"] == 3
    assert out["paper"]["id"] == paper_id and out["anchor"]["boxes"] == []
    assert any("91%" in r for r in out["reasons"]) and "91%" in out["support"]["reason"]


def test_an_unknown_paper_is_a_clear_error(cli: CliRunner) -> None:
    result = cli("locate", "feedfacefeed", "some quote")
    assert result.code == 3 and "feedfacefeed" in result.err


def test_a_missing_file_is_an_input_error(cli: CliRunner, tmp_path: Path) -> None:
    result = cli("locate", tmp_path / "nope.pdf", "some quote")
    assert result.code == 2 and "no such file" in result.err
