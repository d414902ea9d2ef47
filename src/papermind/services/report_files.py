"""Writing a report's three files (report.json, report.md, report.html) to a folder."""

from __future__ import annotations

from pathlib import Path

from papermind.errors import InputError


def write_report_files(folder: Path, *, json_text: str, markdown: str, html: str) -> list[Path]:
    """Write the three formats to ``folder`` (created if needed); returns their paths."""
    texts = {"report.json": json_text, "report.md": markdown, "report.html": html}
    try:
        folder.mkdir(parents=True, exist_ok=True)
        paths = []
        for name, text in texts.items():
            path = folder / name
            path.write_text(text, encoding="utf-8")
            paths.append(path)
    except OSError as err:
        raise InputError(f"cannot write reports to {folder}: {err.strerror or err}") from err
    return paths
