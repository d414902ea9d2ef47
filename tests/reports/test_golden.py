"""Every report in every format, compared with the golden files made by the code before the
workflow table (tests/reports/golden/). A renderer change that alters what a user reads shows
up here as a diff; regenerate with PAPERMIND_GOLDEN_UPDATE=1 only for a change you mean.

Inputs are fixed domain objects (golden/inputs/, made by ``tests.reports.golden_inputs``
from fake-model runs); volatile bits (timestamps, durations) are normalised all the same.
"""

from __future__ import annotations

import io
import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from papermind.domain.answer import QAReport
from papermind.domain.check import CheckReport
from papermind.domain.reading import ReadingReport
from papermind.domain.review import ReviewReport

GOLDEN = Path(__file__).parent / "golden"
MODELS: dict[str, type[Any]] = {"reading": ReadingReport, "review": ReviewReport,
                                "cited_qa": QAReport, "deep_qa": QAReport, "check": CheckReport}
_TIME = re.compile(r"\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?\b")
_EPOCH = re.compile(r"\b1[5-9]\d{8}\.\d+\b")


def normalise(text: str) -> str:
    """Timestamps and epoch seconds out; the rest as rendered."""
    return _EPOCH.sub("<epoch>", _TIME.sub("<time>", text))


def load(name: str) -> Any:
    data = json.loads((GOLDEN / "inputs" / f"{name}.json").read_text(encoding="utf-8"))
    return MODELS[name].model_validate(data)


def cli_text(show: Callable[[Console], None]) -> str:
    console = Console(file=io.StringIO(), record=True, width=100, color_system=None,
                      force_terminal=False)
    show(console)
    return console.export_text()


def renderings(name: str, report: Any) -> dict[str, str]:
    """Format -> text of ``report`` through the renderer contract (``workflow_table``)."""
    if name == "check":
        from papermind.reports import check

        return {"json": json.dumps(check.to_json(report), ensure_ascii=False, indent=2),
                "md": check.to_markdown(report),
                "txt": cli_text(lambda c: check.to_terminal(c, report))}
    from papermind.services.report_files import render_reports
    from papermind.services.report_view import _render
    from papermind.services.workflow_table import renderer_for

    files = render_reports(report)
    _, body = _render(json.loads(files["report.json"]))  # the web page: read back, then shown
    summary = cli_text(lambda c: renderer_for(report.kind).to_terminal(c, report,
                                                                       f"golden-{name}"))
    return {"json": files["report.json"], "md": files["report.md"],
            "html": files["report.html"], "body.html": str(body), "txt": summary}


@pytest.mark.parametrize("name", sorted(MODELS))
def test_reports_render_as_their_golden_files(name: str) -> None:
    for fmt, text in renderings(name, load(name)).items():
        path = GOLDEN / f"{name}.{fmt}"
        got = normalise(text)
        if os.environ.get("PAPERMIND_GOLDEN_UPDATE"):
            path.write_text(got, encoding="utf-8")
        assert path.is_file(), f"no golden file {path.name}: run with PAPERMIND_GOLDEN_UPDATE=1"
        assert got == path.read_text(encoding="utf-8"), f"{path.name} differs from its golden"
