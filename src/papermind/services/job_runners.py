"""The three workflows as job runners: each writes report.{json,md,html} to the job folder."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from papermind.domain.job import Job, JobKind
from papermind.services.jobs import JobOutcome, JobRunner, Progress

if TYPE_CHECKING:
    from papermind.llm import Gateway
    from papermind.services.container import Container


def report_dir(container: Container, job_id: str) -> Path:
    """Where a job's reports live (never derived from user input beyond the job id)."""
    return container.settings.home_dir / "reports" / job_id


def _usage(report: Any) -> dict[str, Any]:
    usage = getattr(report, "usage", {})
    return usage.model_dump(mode="json") if isinstance(usage, BaseModel) else dict(usage)


def workflow_runners(container: Container, gateway: Gateway | None = None) -> dict[JobKind, JobRunner]:
    """Runners for reading, review and question jobs over ``container``'s library."""

    async def reading(job: Job, progress: Progress) -> JobOutcome:
        from papermind.services.reading import read_paper

        run = await read_paper(container, job.request.paper_id or "", job_id=job.id,
                               out_dir=report_dir(container, job.id), progress=progress,
                               gateway=gateway)
        return JobOutcome(usage=_usage(run.report))

    async def review(job: Job, progress: Progress) -> JobOutcome:
        from papermind.services.review import review_paper

        run = await review_paper(container, job.request.paper_id or "",
                                 reviewers=job.request.reviewers, job_id=job.id,
                                 out_dir=report_dir(container, job.id), progress=progress,
                                 gateway=gateway, signoff=False)
        return JobOutcome(usage=_usage(run.report))

    async def question(job: Job, progress: Progress) -> JobOutcome:
        from papermind.services.job_store import JobStore
        from papermind.services.qa import answer_question, qa_parts, write_reports
        from papermind.services.threads import earlier_turns

        parts = qa_parts(container)
        if gateway is not None:
            parts.gateway = gateway
        report = await answer_question(
            parts, job.request.question or "", deep=job.request.deep,
            paper_ids=job.request.paper_ids, job_id=job.id,
            earlier=earlier_turns(container, JobStore(container.db), job),
            on_step=lambda node, summary: progress(node, {"event": "finished", "summary": summary}),
            db_path=container.settings.checkpoint_path)
        write_reports(report, report_dir(container, job.id))
        return JobOutcome(usage=_usage(report))

    return {"reading": reading, "review": review, "question": question}
