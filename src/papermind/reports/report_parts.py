"""Pieces every report renderer shares, written once: the report's own strings in its
language, the Jinja environment of a workflow's templates, the models list, and the demo
label on a terminal. Domain only (plus i18n for the strings)."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from jinja2 import Environment, PackageLoader, select_autoescape

from papermind.i18n import Translator, translator
from papermind.reports.markdown_text import md_text
from papermind.reports.render import DEMO_LABEL, install

if TYPE_CHECKING:
    from collections.abc import Mapping

    from rich.console import Console


def report_strings(report: Any) -> Translator:
    """The report's own strings in its language (catalogue domain 'reports')."""
    return translator("reports", report.language)


@cache
def template_env(package: str) -> Environment:
    """The templates of ``package`` (its ``templates`` folder), autoescaped, with the
    evidence filters installed."""
    return install(Environment(loader=PackageLoader(package, "templates"),
                               autoescape=select_autoescape(["html", "j2"]),
                               trim_blocks=True, lstrip_blocks=True))


def models_markdown(models: Mapping[str, str]) -> list[str]:
    """'- role: model' per model role, escaped."""
    return [f"- {md_text(role)}: {md_text(model)}" for role, model in models.items()]


def print_demo_label(console: Console, report: Any) -> None:
    """The demo label in yellow when a small offline model wrote ``report``."""
    if report.demo_quality:
        console.print(f"[yellow]{DEMO_LABEL}[/]")
