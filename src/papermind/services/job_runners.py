"""The three workflows as job runners: each calls its use case, which writes
report.{json,md,html} to the job's report folder (``Container.report_dir``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from papermind.domain.job import Job, JobKind
from papermind.services.jobs import JobOutcome, JobRunner
from papermind.workflows.ports import ProgressCallback

if TYPE_CHECKING:
    from papermind.llm import Gateway
    from papermind.services.container import Container


def _usage(report: Any) -> dict[str, Any]:
    usage = getattr(report, "usage", {})
    return usage.model_dump(mode="json") if isinstance(usage, BaseModel) else dict(usage)


def workflow_runners(container: Container, gateway: Gateway | None = None) -> dict[JobKind, JobRunner]:
    """Runners for reading, review and question jobs over ``container``'s library."""

    async def reading(job: Job, progress: ProgressCallback) -> JobOutcome:
        from papermind.services.reading import read_paper

        run = await read_paper(container, job.request.paper_id or "", job_id=job.id,
                               progress=progress, gateway=gateway)
        return JobOutcome(usage=_usage(run.report))

    async def review(job: Job, progress: ProgressCallback) -> JobOutcome:
        from papermind.services.review import review_paper

        run = await review_paper(container, job.request.paper_id or "",
                                 reviewers=job.request.reviewers, job_id=job.id,
                                 progress=progress, gateway=gateway, signoff=False)
        return JobOutcome(usage=_usage(run.report))

    async def question(job: Job, progress: ProgressCallback) -> JobOutcome:
        from papermind.services.qa import ask_question

        run = await ask_question(container, job.request.question or "", deep=job.request.deep,
                                 paper_ids=job.request.paper_ids, job_id=job.id,
                                 progress=progress, gateway=gateway)
        return JobOutcome(usage=_usage(run.report))

    return {"reading": reading, "review": review, "question": question}
