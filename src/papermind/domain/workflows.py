"""The workflow table: one row per kind of background job (deep reading, review, question).

Every layer reads this one table: the job request validates its kind and required field
here, the job runners and the worker's warm-up find the use case and the graphs, the
report files find the renderer, the web shows the display name, the API describes the
kinds, and evaluation finds its harness. A row names the other layers' modules by their
short names (``services.<use_case>``, ``workflows.<graph>.graph``,
``workflows.<renderer>.render``, ``evaluation.runs.<evaluation>``) so the domain imports none
of them; ``services.workflow_table`` resolves them, and its test checks every row.

Adding a workflow: one row here, one package under workflows/ (state, nodes, graph,
prompts, render), one use-case module with ``run_job`` (its parts Protocol joins
``job_runners.JobParts``), one test; an evaluation harness when it has one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from papermind.domain.answer import QAReport
from papermind.domain.base import Frozen
from papermind.domain.reading import ReadingReport
from papermind.domain.review import ReviewReport


@dataclass(frozen=True)
class WorkflowSpec:
    """One kind of background job and everything that names or renders it."""

    kind: str
    """The job kind as the API, the CLI and report JSON say it ('reading')."""
    title: str
    """Its display name on pages ('Deep reading')."""
    needs: Literal["paper_id", "question"]
    """The request field a job of this kind cannot do without."""
    use_case: str
    """The module under ``papermind.services`` whose ``run_job`` runs the job."""
    graphs: tuple[str, ...]
    """Packages under ``papermind.workflows`` whose ``graph.build_graph`` the job runs."""
    report: type[Frozen]
    """The report model it writes."""
    report_kinds: tuple[str, ...]
    """The report model's ``kind`` values (a question is answered single-pass or deep)."""
    renderer: str
    """The package under ``papermind.workflows`` whose ``render`` module renders the report
    (the renderer contract: ``to_json``, ``from_json``, ``to_markdown``, ``to_html``,
    ``to_html_body``, ``to_terminal``)."""
    evaluation: str | None = None
    """Its `papermind eval` name; the harness is ``evaluation.runs.<evaluation>`` (None:
    no evaluation yet)."""

    @property
    def name(self) -> str:
        """Its one internal name: the first report kind ('deep_reading')."""
        return self.report_kinds[0]


WORKFLOWS: dict[str, WorkflowSpec] = {spec.kind: spec for spec in (
    WorkflowSpec("reading", "Deep reading", "paper_id", use_case="reading",
                 graphs=("deep_reading",), report=ReadingReport,
                 report_kinds=("deep_reading",), renderer="deep_reading",
                 evaluation="reading"),
    WorkflowSpec("review", "Pre-review", "paper_id", use_case="review", graphs=("review",),
                 report=ReviewReport, report_kinds=("review",), renderer="review",
                 evaluation="review"),
    WorkflowSpec("question", "Question", "question", use_case="qa",
                 graphs=("cited_qa", "deep_qa"), report=QAReport,
                 report_kinds=("cited_qa", "deep_qa"), renderer="deep_qa", evaluation="qa"),
)}
"""Job kind -> its row, in the order pages and help texts list them."""

BY_REPORT_KIND: dict[str, WorkflowSpec] = {
    kind: spec for spec in WORKFLOWS.values() for kind in spec.report_kinds}
"""A report's ``kind`` -> the row that writes it."""

BY_EVALUATION: dict[str, WorkflowSpec] = {
    spec.evaluation: spec for spec in WORKFLOWS.values() if spec.evaluation}
"""A `papermind eval` name -> its row."""
