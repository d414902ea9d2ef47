"""The deep-reading service: paper resolution, reader window, durable resume, report files."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from papermind.config import EndpointSettings, LLMSettings, RoleSettings, load_settings
from papermind.errors import InputError, NotFoundError, ProviderError
from papermind.llm import build_gateway
from papermind.llm.testing import fake_gateway
from papermind.services.container import Container
from papermind.services.paper_lookup import resolve_paper
from papermind.services.reading import read_paper, reader_window
from tests.support.reading_script import (
    PAPER_MD,
    checker_answer,
    questions_answer,
    reader_answer,
)


@pytest.fixture
def container(home: Path) -> Iterator[Container]:
    with Container(load_settings(home)) as c:
        yield c


@pytest.fixture
def paper_file(tmp_path: Path) -> Path:
    path = tmp_path / "sparse_routing.md"
    path.write_text(PAPER_MD)
    return path


def test_resolve_paper_by_file_and_by_prefix(container: Container, paper_file: Path) -> None:
    paper = resolve_paper(container.library, paper_file)
    assert paper.title.startswith("Sparse Mixture Routing")
    assert resolve_paper(container.library, paper.id[:8]).id == paper.id
    assert resolve_paper(container.library, str(paper_file)).id == paper.id  # already stored
    with pytest.raises(InputError, match="no such file"):
        resolve_paper(container.library, "missing/paper.pdf")
    with pytest.raises(InputError, match="is a folder"):
        resolve_paper(container.library, paper_file.parent)
    with pytest.raises(NotFoundError):
        resolve_paper(container.library, "0123abcd")


def test_reader_window_follows_the_reader_model() -> None:
    settings = load_settings()
    big = build_gateway(LLMSettings(endpoints={
        "default": EndpointSettings(model="big", context_tokens=32000)}))
    budget, points = reader_window(settings, big)
    assert budget == 32000 - 2048 - 1200 and points == 4
    small = build_gateway(LLMSettings(
        endpoints={"default": EndpointSettings(model="small", context_tokens=4096)},
        roles={"reader": RoleSettings(max_tokens=800)}))
    assert reader_window(settings, small) == (4096 - 800 - 1200, 2)
    fixed = settings.model_copy(update={"workflows": settings.workflows.model_copy(
        update={"reading_context_tokens": 1500})})
    assert reader_window(fixed, small)[0] == 1500


async def test_failed_job_resumes_without_repeating_done_nodes(
        container: Container, paper_file: Path) -> None:
    paper = resolve_paper(container.library, paper_file)
    gateway = fake_gateway({"reader": [reader_answer()],
                            "checker": [RuntimeError("endpoint down"), checker_answer("high")],
                            "questioner": [questions_answer(["M1"])]})
    with pytest.raises(ProviderError):
        await read_paper(container, paper.id, job_id="job-42", gateway=gateway)
    events: list[tuple[str, object]] = []
    run = await read_paper(container, paper.id, job_id="job-42", gateway=gateway,
                           progress=lambda node, info: events.append((node, info["event"])))
    report = run.report
    assert events == [("hallucination_checker", "started"), ("hallucination_checker", "finished"),
                      ("questioner", "started"), ("questioner", "finished")]
    assert len(gateway.calls_for(role="reader")) == 1
    assert report.credibility == "high" and report.job_id == "job-42"
    assert [h.node for h in report.history] == ["context_loader", "deep_reader",
                                                "hallucination_checker", "questioner"]


async def test_read_paper_writes_reports_under_home(container: Container,
                                                    paper_file: Path) -> None:
    gateway = fake_gateway({"reader": [reader_answer()], "checker": [checker_answer("high")],
                            "questioner": [questions_answer(["M1", "R1"])]})
    run = await read_paper(container, paper_file, gateway=gateway)
    folder = container.settings.home_dir / "reports" / run.job_id
    assert sorted(p.name for p in run.files) == ["report.html", "report.json", "report.md"]
    assert all(p.parent == folder for p in run.files)
    data = json.loads((folder / "report.json").read_text())
    assert data["usage"]["by_node"]["deep_reader"]["tokens_in"] > 0
    assert data["models"] == {"reader": "scripted", "checker": "scripted",
                              "questioner": "scripted"}
    assert data["verification"]["share_verified"] == 1.0


def test_local_model_window_leaves_room_for_the_schema_in_the_prompt() -> None:
    local = build_gateway(LLMSettings())  # nothing configured: the bundled model
    assert reader_window(load_settings(), local) == (4096 - 1024 - 1200 - 600, 2)
