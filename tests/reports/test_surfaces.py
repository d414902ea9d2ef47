"""One evidence item through every surface: CLI text, JSON, Markdown, an HTML report and the
web page view must say the same things: where (a span across a page break), the status
label, who lowered support and why, and the paper's text."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import httpx
from jinja2 import Environment
from reportlab.lib.pagesizes import LETTER
from reportlab.pdfgen import canvas

from papermind import reports
from papermind.api.app import create_app
from papermind.config import load_settings
from papermind.grounding import GroundingEngine
from papermind.ingest import parse_file
from tests.api.server import serve
from tests.support.cli import CliRunner, cli  # noqa: F401 - the fixture

PAGE_1 = ["Budgeted Selection of Evidence", "We select passages under a token budget.",
          "Our selector reaches 71.4% recall and"]
PAGE_2 = ["outperforms the baseline by 9.2 points.", "It adds little latency."]
CLAIM = "Our selector reaches 74.1% recall and outperforms the baseline by 9.2 points."
REPORT = reports.install(Environment(autoescape=True)).from_string(
    "<li>{{ item | evidence_html }}</li><p class='s'>{{ item | evidence_status }}</p>")


def two_pages(path: Path) -> Path:
    doc = canvas.Canvas(str(path), pagesize=LETTER)
    doc.setTitle("Budgeted Selection of Evidence")
    for lines in (PAGE_1, PAGE_2):
        doc.setFont("Helvetica", 11)
        for i, text in enumerate(lines):
            doc.drawString(72, 700 - 20 * i, text)
        doc.showPage()
    doc.save()
    return path


def flat(text: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())


def test_one_item_reads_the_same_everywhere(cli: CliRunner, home: Path,  # noqa: F811
                                            tmp_path: Path) -> None:
    pdf = two_pages(tmp_path / "two.pdf")
    paper = parse_file(pdf)
    evidence = GroundingEngine().cite(paper, "1:3-2:1", claim=CLAIM)
    label, status = "p. 1, l. 3 - p. 2, l. 1", reports.status_label(evidence)
    reason = "the claim says 74.1% where the cited text says 71.4%"
    text = "Our selector reaches 71.4% recall and outperforms the baseline by 9.2 points."
    assert evidence.anchor is not None and evidence.anchor.label() == label
    assert status == f"found · contradicted (code: {reason})" and evidence.matched_text == text

    data = json.loads(json.dumps(reports.evidence_json(evidence)))
    assert data["anchor"]["label"] == label and data["status"] == status
    assert data["support"] == {"verdict": "contradicted", "by": "code", "reason": reason}
    assert (data["found"], data["verified"], data["text"]) == (True, False, text)
    assert reports.as_evidence(data) == evidence  # stored reports read back the same

    shown = {
        "cli": " ".join(cli("verify", pdf, "--claim", CLAIM, "--lines", "1:3-2:1").out.split()),
        "cli text": reports.text(evidence),
        "markdown": reports.markdown(evidence).replace("\\", ""),
        "html report": flat(REPORT.render(item=data)),
    }
    for surface, out in shown.items():
        for fact in (label, status):
            assert fact in out, (surface, fact, out)
    for surface in ("cli text", "markdown", "html report"):
        assert text in shown[surface], surface
    cli_json = cli("verify", pdf, "--claim", CLAIM, "--lines", "1:3-2:1", "--json").json()
    assert cli_json["evidence"] == data

    href = reports.page_href(evidence.anchor)
    assert href == f"/papers/{paper.id}/pages/1?lines=1:3-2:1"
    assert f'href="{href}"' in REPORT.render(item=data)
    with serve(create_app(load_settings(home))) as base, \
            httpx.Client(base_url=base, timeout=30) as client:
        assert client.post("/api/papers", files={"file": ("two.pdf", pdf.read_bytes())}
                           ).status_code in (200, 201)
        first = client.get(href).text
        second = client.get(href.replace("/pages/1?", "/pages/2?")).text
    for page, lines in ((first, [3]), (second, [1])):
        assert [int(n) for n in re.findall(r'class="highlight" data-line="(\d+)"', page)] == lines
        assert f"Cited: {label}" in flat(page)
    assert "continues on p. 2" in flat(first) and "starts on p. 1" in flat(second)
