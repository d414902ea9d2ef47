"""The one shape of the use cases: the container's checkpointer, report folder and job
store, and the one progress listener."""

from __future__ import annotations

from pathlib import Path

from papermind.config import Settings
from papermind.domain.reading import HistoryEntry
from papermind.services.container import Container
from papermind.services.workflow_runs import node_listener, report_folder


async def test_the_container_opens_the_durable_checkpointer(tmp_path: Path) -> None:
    box = Container(Settings(home=tmp_path))
    config = {"configurable": {"thread_id": "job-1", "checkpoint_ns": ""}}
    async with box.checkpointer() as saver:
        assert await saver.aget_tuple(config) is None  # type: ignore[arg-type]
    assert box.settings.checkpoint_path.is_file()
    assert box.report_dir("job-1") == tmp_path / "reports" / "job-1"
    assert report_folder(box, "job-1") == box.report_dir("job-1")
    assert report_folder(box, "job-1", tmp_path / "out") == tmp_path / "out"


def test_the_job_service_is_built_over_the_containers_store(tmp_path: Path) -> None:
    with Container(Settings(home=tmp_path)) as box:
        service = box.job_service()
        assert service.store is box.job_store
        assert set(service.runners) == {"reading", "review", "question"}


def test_one_listener_reports_every_history_shape() -> None:
    seen: list[tuple[str, dict[str, object]]] = []
    listen = node_listener(lambda node, info: seen.append((node, info)))
    entry = HistoryEntry(node="deep_reader", started="t0", finished="t1", summary="4 points")
    listen("deep_reader", {"history": [entry]})
    listen("editor", {"history": [{"node": "editor", "summary": "tasks for 3"}]})
    listen("route", {})
    assert [(n, i["event"], i["summary"]) for n, i in seen] == [
        ("deep_reader", "finished", "4 points"), ("editor", "finished", "tasks for 3"),
        ("route", "finished", "")]
    assert all(isinstance(i["seconds"], float) for _, i in seen)
    node_listener(None)("quiet", {"history": [entry]})  # no callback: nothing to report
