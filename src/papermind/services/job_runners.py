"""Job runners from the workflow table: one per row, each calling its use case's
``run_job``, which writes report.{json,md,html} to the job's report folder."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from papermind.domain.job import Job
from papermind.domain.workflows import WORKFLOWS, WorkflowSpec
from papermind.services.jobs import JobOutcome, JobRunner
from papermind.services.workflow_table import use_case
from papermind.workflows.ports import ProgressCallback

if TYPE_CHECKING:
    from papermind.llm import Gateway
    from papermind.services.qa import QAHost
    from papermind.services.reading import ReadingParts
    from papermind.services.review import ReviewParts

    class JobParts(ReadingParts, ReviewParts, QAHost, Protocol):
        """The parts of every use case in the table (a new row adds its own here)."""


def workflow_runners(parts: JobParts, gateway: Gateway | None = None) -> dict[str, JobRunner]:
    """A runner per job kind; ``parts`` provides what every use case asks for (the
    container passes itself)."""

    def runner(spec: WorkflowSpec) -> JobRunner:
        async def run(job: Job, progress: ProgressCallback) -> JobOutcome:
            usage = await use_case(spec).run_job(parts, job, progress, gateway)
            return JobOutcome(usage=usage)
        return run

    return {kind: runner(spec) for kind, spec in WORKFLOWS.items()}
