"""A two-page PDF whose every word's box is known from the font metrics, a scripted report
citing it (a quote mid-line, a quote across the page break, a line), and a server with both."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from jinja2 import Environment
from reportlab.lib.pagesizes import LETTER
from reportlab.pdfbase.pdfmetrics import getAscentDescent, stringWidth
from reportlab.pdfgen import canvas

from papermind import reports
from papermind.api.app import create_app
from papermind.config import SearchSettings, load_settings
from papermind.domain import Paper
from papermind.domain.job import Job
from papermind.grounding import GroundingEngine
from papermind.ingest import parse_file
from papermind.services.jobs import JobOutcome
from tests.api.server import serve, wait_for

FONT, SIZE, LEFT, TOP, LEADING = "Helvetica", 11, 72.0, 700.0, 20.0
HEADING = ("Helvetica-Bold", 13)  # the 'References' line (not in drawn_words' metrics)
PAGES = [
    ["Budgeted Selection of Evidence",
     "We select passages under a strict token budget for every question.",
     "Our selector reaches high recall while it keeps the latency low and",
     "the memory use flat across all of the tested corpora and sizes.",
     "Results on the larger benchmark show that the budget matters and"],
    ["it changes which passages a reader model is able to see at all.",
     "A smaller budget lowers recall by a few points on average.",
     "References",
     "[1] Ada Author and Ben Writer. Counting tokens under budgets. In NeurIPS, 2020.",
     "[2] Cy Coder. Passage selection for readers. In ACL, 2021.",
     "[3] Di Dev and Ed Editor. Recall at a budget. Journal of Retrieval, 2019."],
]
ONE_PAGE_QUOTE = "reaches high recall while it keeps the latency low and the memory use flat"
TWO_PAGE_QUOTE = "the budget matters and it changes which passages"
REPORT_PAGE = Environment(autoescape=True)
reports.install(REPORT_PAGE)
REPORT_HTML = REPORT_PAGE.from_string(
    "<!doctype html><html><head><style>body { width: 9000px }</style></head><body>"
    "<h1>Scripted reading</h1><ol>{% for e in items %}<li>{{ e | evidence_html }}</li>"
    "{% endfor %}</ol></body></html>")


@dataclass(frozen=True)
class WordBox:
    """A drawn word: page, text and box in PDF points (top-left origin, y down)."""

    page: int
    text: str
    x0: float
    y0: float
    x1: float
    y1: float


def reader_pdf(path: Path) -> Path:
    doc = canvas.Canvas(str(path), pagesize=LETTER)
    doc.setTitle(PAGES[0][0])
    for lines in PAGES:
        doc.setFont(FONT, SIZE)
        for i, text in enumerate(lines):
            doc.setFont(*HEADING if text == "References" else (FONT, SIZE))
            doc.drawString(LEFT, TOP - LEADING * i, text)
        doc.showPage()
    doc.save()
    return path


def drawn_words() -> list[WordBox]:
    """Every drawn word's box, from the font's advance widths, ascent and descent."""
    ascent, descent = getAscentDescent(FONT, SIZE)
    height = LETTER[1]
    out = []
    for page, lines in enumerate(PAGES, start=1):
        for i, text in enumerate(lines):
            baseline, x = TOP - LEADING * i, LEFT
            for word in text.split(" "):
                width = stringWidth(word, FONT, SIZE)
                out.append(WordBox(page, word, x, height - baseline - ascent, x + width,
                                   height - baseline - descent))
                x += width + stringWidth(" ", FONT, SIZE)
    return out


def words_of(quote: str, first_page: int = 1) -> list[WordBox]:
    """The drawn words of ``quote`` (its first occurrence, from ``first_page`` on)."""
    drawn = [w for w in drawn_words() if w.page >= first_page]
    want = quote.split()
    for i in range(len(drawn) - len(want) + 1):
        if [w.text for w in drawn[i:i + len(want)]] == want:
            return drawn[i:i + len(want)]
    raise AssertionError(f"{quote!r} is not drawn")


def write_report(folder: Path, paper: Paper) -> list[dict[str, Any]]:
    """report.json and report.html citing the two quotes and the line span 1:2-1:2; returns
    the evidence items (in order)."""
    engine = GroundingEngine()
    found = [engine.ground(paper, ONE_PAGE_QUOTE), engine.ground(paper, TWO_PAGE_QUOTE),
             engine.cite(paper, "1:2")]
    items = [reports.evidence_json(e) for e in found]
    data = {"paper_id": paper.id, "points": [{"text": "scripted", "evidence": items}],
            "references": [{"entry_key": "1", "resolved": True}]}
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "report.json").write_text(json.dumps(data), encoding="utf-8")
    (folder / "report.html").write_text(REPORT_HTML.render(items=items), encoding="utf-8")
    (folder / "report.md").write_text("\n".join(reports.markdown(e) for e in found),
                                      encoding="utf-8")
    return items


@dataclass(frozen=True)
class ReaderSite:
    """A running server with the reader PDF, a Markdown paper and a finished report job."""

    base: str
    paper: Paper
    job_id: str
    md_id: str
    items: list[dict[str, Any]]


@contextmanager
def reader_site(home: Path, tmp_path: Path) -> Iterator[ReaderSite]:
    """Serve a fresh library: the reader PDF, a Markdown paper, and a 'reading' job whose
    scripted runner writes ``write_report``'s files."""
    pdf = reader_pdf(tmp_path / "reader.pdf")
    paper = parse_file(pdf)
    written: list[list[dict[str, Any]]] = []

    async def scripted(job: Job, progress: Any) -> JobOutcome:
        written.append(write_report(home / "reports" / job.id, paper))
        return JobOutcome(usage={})

    settings = load_settings(home)
    settings = settings.model_copy(update={"search": SearchSettings(embedder="hashing")})
    with serve(create_app(settings, runners={"reading": scripted})) as base, \
            httpx.Client(base_url=base, timeout=30) as client:
        added = client.post("/api/papers", files={"file": ("reader.pdf", pdf.read_bytes())})
        assert added.json()["id"] == paper.id, added.text
        md = b"# Plain Notes\n\n## 1 Intro\n\nRouting sends tokens to experts.\n"
        md_id = client.post("/api/papers", files={"file": ("notes.md", md)}).json()["id"]
        job = client.post("/api/jobs", json={"kind": "reading", "paper_id": paper.id}).json()
        assert wait_for(client, job["id"])["status"] == "completed"
        yield ReaderSite(base=base, paper=paper, job_id=job["id"], md_id=md_id,
                         items=written[0])
