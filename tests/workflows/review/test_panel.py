"""The panel as data: every actor is complete, and a reviewer added as one row runs."""

from __future__ import annotations

from pathlib import Path

from papermind.config import LLMSettings, RoleSettings
from papermind.domain import Paper
from papermind.llm import known_roles
from papermind.llm.roles import role_chain, role_spec
from papermind.llm.testing import fake_gateway
from papermind.workflows.review import ACTORS, FULL_PANEL, REVIEWERS, build_graph
from papermind.workflows.review.drafts import EditorDraft
from papermind.workflows.review.prompts import PROMPTS
from papermind.workflows.review.render import to_markdown
from papermind.workflows.review.report import build_report
from tests.support.review_script import run_review, script

PROMPT_DIR = Path(__file__).parents[3] / "src" / "papermind" / "workflows" / "review" / "prompts"


def test_every_panel_role_has_a_prompt_a_view_a_parent_and_a_temperature(paper: Paper) -> None:
    assert [a.role for a in ACTORS] == FULL_PANEL
    for actor in ACTORS:
        assert (PROMPT_DIR / f"{actor.role}.md").is_file() and actor.role in PROMPTS
        spec = role_spec(actor.role)
        assert spec is not None and actor.role in known_roles()
        assert (spec.parent, spec.temperature) == (actor.parent, actor.temperature)
        assert role_chain(actor.role)[-1] == "default" and 0.0 <= actor.temperature <= 2.0
        assert actor.name and actor.name[0].isupper()
    for reviewer in REVIEWERS:
        view = reviewer.view(paper, 4000)
        assert view.lines and reviewer.aspect and reviewer.task and reviewer.brief
        assert reviewer.task_field in EditorDraft.model_fields
    assert set(build_graph().nodes) >= set(FULL_PANEL)
    md_files = {p.stem for p in PROMPT_DIR.glob("*.md")}
    assert md_files == set(FULL_PANEL)  # one prompt file per actor, named after its node


async def test_reproducibility_reviewer_runs_in_the_full_panel(paper: Paper) -> None:
    settings = LLMSettings(roles={"reviewer": RoleSettings(model="panel-model")})
    gateway = fake_gateway(script(), settings=settings)
    result = await run_review(gateway, paper)
    assert result.status == "completed" and "reproducibility_reviewer" in result.nodes_run
    (call,) = gateway.calls_for(role="reproducibility_reviewer")
    assert call.node == "reproducibility_reviewer" and "reproduced" in call.text
    assert "three random seeds" in call.text  # its view: the experiment setup
    assert gateway.resolve("reproducibility_reviewer").temperature == 0.2
    assert call.kwargs.get("temperature") == 0.2
    assert gateway.model_for("reproducibility_reviewer") == "panel-model"  # via 'reviewer'
    report = build_report(result.state)
    (score,) = [s for s in report.scores if s.reviewer == "reproducibility_reviewer"]
    assert (score.name, score.aspect, score.original) == (
        "Reproducibility reviewer", "reproducibility", 6)
    comments = [c for c in report.comments if c.sender == "reproducibility_reviewer"]
    assert [c.label for c in comments] == ["Reproducibility reviewer, comment 1",
                                           "Reproducibility reviewer, comment 2"]
    assert all(c.found for c in comments)
    md = to_markdown(report)
    assert "### Reproducibility reviewer" in md and "| Reproducibility reviewer | reproducibility" in md
    assert "**Reproducibility reviewer, comment 2** issue" in md
