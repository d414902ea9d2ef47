"""The workflow table (``domain.workflows``) resolved to code: each row's renderer, use
case, graphs and evaluation harness, imported on first use (the CLI's --help imports none).

The renderer contract, one per workflow: the module ``workflows.<renderer>.render`` has
``to_json`` (the dict report.json holds and ``--json`` prints), ``from_json``,
``to_markdown``, ``to_html`` (a self-contained page), ``to_html_body`` (the page's content,
for the web's layout) and ``to_terminal`` (the CLI summary). The use-case contract: the
module ``services.<use_case>`` has ``run_job(host, job, progress, gateway)``.
"""

from __future__ import annotations

import importlib
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, Protocol, cast

from papermind.domain.workflows import BY_REPORT_KIND, WORKFLOWS, WorkflowSpec

if TYPE_CHECKING:
    from markupsafe import Markup
    from rich.console import Console

    from papermind.domain.job import Job
    from papermind.llm import Gateway
    from papermind.workflows.ports import ProgressCallback


class ReportRenderer(Protocol):
    """What every workflow's render module offers (see the module doc)."""

    def to_json(self, report: Any) -> dict[str, Any]: ...
    def from_json(self, data: dict[str, Any]) -> Any: ...
    def to_markdown(self, report: Any) -> str: ...
    def to_html(self, report: Any) -> str: ...
    def to_html_body(self, report: Any) -> Markup: ...
    def to_terminal(self, console: Console, report: Any, job_id: str) -> None: ...


class UseCase(Protocol):
    """What every workflow's use-case module offers: run one job, return its usage."""

    def run_job(self, host: Any, job: Job, progress: ProgressCallback,
                gateway: Gateway | None) -> Awaitable[dict[str, Any]]: ...


def spec_of(kind: str) -> WorkflowSpec:
    """The row of job kind ``kind``."""
    return WORKFLOWS[kind]


def renderer(spec: WorkflowSpec) -> ReportRenderer:
    return cast(ReportRenderer,
                importlib.import_module(f"papermind.workflows.{spec.renderer}.render"))


def renderer_for(report_kind: str) -> ReportRenderer:
    """The renderer of a report by its ``kind`` ('deep_reading', 'review', 'cited_qa'...)."""
    return renderer(BY_REPORT_KIND[report_kind])


def use_case(spec: WorkflowSpec) -> UseCase:
    return cast(UseCase, importlib.import_module(f"papermind.services.{spec.use_case}"))


def graph_modules(spec: WorkflowSpec) -> list[Any]:
    """The ``graph`` modules of the row's workflows (each has ``build_graph``)."""
    return [importlib.import_module(f"papermind.workflows.{name}.graph") for name in spec.graphs]
