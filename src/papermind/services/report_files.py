"""The one report writer: a report's three files (report.json, report.md, report.html).

Every use case writes through ``write_reports``; each report is rendered by its workflow's
renderer (``services.workflow_table``), found by the report's ``kind``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from papermind.disk_writes import write_atomically
from papermind.errors import InputError, StorageError
from papermind.services.workflow_table import renderer_for


def report_data(report: Any) -> dict[str, Any]:
    """The JSON form of ``report`` (what report.json holds and ``--json`` prints)."""
    return renderer_for(report.kind).to_json(report)


def render_reports(report: Any) -> dict[str, str]:
    """File name -> text of the three formats of ``report`` (a domain report model)."""
    render = renderer_for(report.kind)
    return {"report.json": json.dumps(render.to_json(report), ensure_ascii=False, indent=2),
            "report.md": render.to_markdown(report), "report.html": render.to_html(report)}


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
