"""The one report writer: a report's three files (report.json, report.md, report.html).

Every use case (reading, review, question) writes through ``write_reports``; each report
kind is rendered by its workflow's ``render`` module (``to_json``, ``to_markdown``,
``to_html``), looked up by the report's ``kind``.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

from papermind.disk_writes import write_atomically
from papermind.errors import InputError, StorageError

RENDERERS = {"deep_reading": ("papermind.workflows.deep_reading.render", "to_dict"),
             "review": ("papermind.workflows.review.render", "to_json"),
             "cited_qa": ("papermind.workflows.deep_qa.render", "report_json"),
             "deep_qa": ("papermind.workflows.deep_qa.render", "report_json")}
"""Report kind -> (the module that renders it, its JSON-dict function); imported on use."""


def report_data(report: Any) -> dict[str, Any]:
    """The JSON form of ``report`` (what report.json holds and ``--json`` prints)."""
    module, to_data = RENDERERS[report.kind]
    data: dict[str, Any] = getattr(importlib.import_module(module), to_data)(report)
    return data


def render_reports(report: Any) -> dict[str, str]:
    """File name -> text of the three formats of ``report`` (a domain report model)."""
    module = importlib.import_module(RENDERERS[report.kind][0])
    return {"report.json": json.dumps(report_data(report), ensure_ascii=False, indent=2),
            "report.md": module.to_markdown(report), "report.html": module.to_html(report)}


def write_reports(report: Any, folder: Path) -> list[Path]:
    """Write the three formats of ``report`` to ``folder`` (created if needed); their paths."""
    texts = render_reports(report)
    try:
        paths = []
        for name, text in texts.items():
            path = folder / name
            write_atomically(path, text)
            paths.append(path)
    except StorageError:
        raise
    except OSError as err:
        raise InputError(f"cannot write reports to {folder}: {err.strerror or err}") from err
    return paths
