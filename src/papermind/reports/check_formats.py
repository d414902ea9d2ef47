"""A check's findings where authors look: SARIF 2.1.0 (code hosts and editors) and GitHub
workflow annotations. Domain only: where the checked files are is given by the caller.

Locations: a LaTeX project's findings carry ``file:line`` and become a physical location in
that file; a PDF's findings carry page and line, which no code host can show in a PDF, so
they point at the PDF itself (when the caller names it) and say the page and line in the
message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from papermind import __version__
from papermind.domain.check import CheckFinding, CheckReport
from papermind.domain.check_kinds import kind_info

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
FINGERPRINT = "papermindFinding/v1"
"""The partial fingerprint's name in SARIF results (also read back by ``--baseline``)."""
LEVELS = {"high": "error", "medium": "warning", "low": "note"}
"""Severity -> SARIF level and GitHub annotation command."""
_GITHUB = {"high": "error", "medium": "warning", "low": "notice"}

Locate = Callable[[CheckFinding], str | None]
"""A finding -> the path (relative to where the tool runs) of the file it is in, or None."""


def to_sarif(report: CheckReport, locate: Locate) -> dict[str, Any]:
    """One SARIF log with one run: a rule per kind found, a result per finding."""
    kinds = sorted({f.kind for f in report.findings})
    index = {kind: i for i, kind in enumerate(kinds)}
    run: dict[str, Any] = {
        "tool": {"driver": {
            "name": "papermind check", "version": __version__,
            "rules": [_rule(kind, report) for kind in kinds]}},
        "results": [_result(f, index[f.kind], locate(f)) for f in report.findings],
        "columnKind": "unicodeCodePoints"}
    if report.notes:
        run["invocations"] = [{"executionSuccessful": True, "toolExecutionNotifications": [
            {"level": "note", "message": {"text": note}} for note in report.notes]}]
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def _rule(kind: str, report: CheckReport) -> dict[str, Any]:
    info = kind_info(kind)
    worst = max((f for f in report.findings if f.kind == kind),
                key=lambda f: ("low", "medium", "high").index(f.severity))
    return {"id": kind, "name": "".join(w.capitalize() for w in kind.split("_")),
            "shortDescription": {"text": info.title}, "fullDescription": {"text": info.help},
            "help": {"text": info.help, "markdown": f"**{info.title}**\n\n{info.help}"},
            "defaultConfiguration": {"level": LEVELS[worst.severity]},
            "properties": {"tags": ["papermind", worst.aspect]}}


def _result(f: CheckFinding, rule_index: int, path: str | None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "ruleId": f.kind, "ruleIndex": rule_index, "level": LEVELS[f.severity],
        "message": {"text": _message(f)},
        "partialFingerprints": {FINGERPRINT: f.fingerprint()}}
    if path is not None:
        physical: dict[str, Any] = {"artifactLocation": {"uri": path}}
        if f.source is not None:
            physical["region"] = {"startLine": f.source.line,
                                  "snippet": {"text": f.source.text or f.text}}
        out["locations"] = [{"physicalLocation": physical}]
    return out


def _message(f: CheckFinding) -> str:
    """The message, with the page and line of a PDF finding and the suggested fix."""
    where = f.anchor.label() if f.source is None and f.anchor is not None else ""
    text = f"{where}: {f.message}" if where else f.message
    return f"{text}. Fix: {f.fix}" if f.fix else text


def to_github(report: CheckReport, locate: Locate) -> list[str]:
    """One workflow command per finding (``::error file=F,line=N,title=T::message``), then
    a notice per note of the report (what was not checked)."""
    lines = []
    for f in report.findings:
        props = []
        path = locate(f)
        if path is not None:
            props.append(f"file={_property(path)}")
            if f.source is not None:
                props.append(f"line={f.source.line}")
        props.append(f"title={_property(f'{kind_info(f.kind).title} ({f.kind})')}")
        lines.append(f"::{_GITHUB[f.severity]} {','.join(props)}::{_data(_message(f))}")
    return lines + [f"::notice title=papermind check::{_data(note)}" for note in report.notes]


def _data(text: str) -> str:
    """A workflow command's message, escaped as the runner expects."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    """A workflow command's property value, escaped as the runner expects."""
    return _data(text).replace(":", "%3A").replace(",", "%2C")
