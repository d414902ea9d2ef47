"""The review panel as data: one row per actor, from which everything else is derived.

The graph's nodes, the editor's task fields, the prompts and their variables, the model roles
(parent and seed temperature, registered with ``papermind.llm``), the scored aspects, the
display names in reports and the panels to run all come from ``ACTORS``. Adding a reviewer
is one ``ReviewerSpec`` row, one prompt file ``prompts/<role>.md`` and one view function.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from papermind.domain import Paper
from papermind.llm import RoleSpec, register_roles
from papermind.workflows.review import views
from papermind.workflows.review.views import View

ViewBuilder = Callable[[Paper, int], View]
REVIEWER_VARS = frozenset({"task", "paper", "max_comments", "findings"})


@dataclass(frozen=True)
class ActorSpec:
    """One member of the panel: its node / sender / model role name and how people see it."""

    role: str
    """graph node, message sender, model role and prompt file name (``prompts/<role>.md``)"""
    name: str
    """what people read, e.g. 'Methodology reviewer'"""
    parent: str
    """model role it inherits settings from (``llm.roles.<parent>``)"""
    temperature: float
    """seed temperature (``llm.role_temperatures`` and ``llm.roles.<role>`` override it)"""
    prompt_vars: frozenset[str]
    item: str = "comment"
    """what one of its messages is called in a report ('Methodology reviewer, comment 2')"""


@dataclass(frozen=True)
class ReviewerSpec(ActorSpec):
    """A scoring reviewer: it sees one view of the paper and scores one aspect."""

    prompt_vars: frozenset[str] = REVIEWER_VARS
    aspect: str = ""
    """what its score measures, e.g. 'method'"""
    task: str = ""
    """its task when the editor gives none"""
    brief: str = ""
    """what the editor is told to assign it"""
    view: ViewBuilder = views.methodology_view
    related_work: bool = False
    """online, it also sees related papers found in the scholarly sources"""

    @property
    def task_field(self) -> str:
        """The editor draft's field for this reviewer's task, e.g. 'methodology_task'."""
        return self.role.removesuffix("_reviewer") + "_task"


EDITOR = ActorSpec("editor", "Editor", "reader", 0.3,
                   frozenset({"paper", "reviewers", "tasks", "findings"}))
REVIEWERS: tuple[ReviewerSpec, ...] = (
    ReviewerSpec("contribution_reviewer", "Contribution reviewer", "reviewer", 0.4,
                 aspect="novelty", task="Judge novelty and the stated contributions.",
                 brief="novelty and stated contributions", view=views.contribution_view,
                 related_work=True),
    ReviewerSpec("methodology_reviewer", "Methodology reviewer", "reviewer", 0.3,
                 aspect="method",
                 task="Check the method for completeness, reproducibility and gaps.",
                 brief="completeness, reproducibility and logical gaps of the method",
                 view=views.methodology_view),
    ReviewerSpec("experiment_reviewer", "Experiment reviewer", "reviewer", 0.2,
                 aspect="experiments", task="Check whether the experiments support the claims.",
                 brief="whether the experiments, metrics and ablations support the claims",
                 view=views.experiment_view),
    ReviewerSpec("reproducibility_reviewer", "Reproducibility reviewer", "reviewer", 0.2,
                 aspect="reproducibility",
                 task="Check whether code, data, seeds, hyper-parameters and compute are "
                      "reported well enough to reproduce the results.",
                 brief="whether code, data, seeds, hyper-parameters and compute are reported",
                 view=views.reproducibility_view),
)
DEVIL = ActorSpec("devil", "Devil's advocate", "reviewer", 0.8, frozenset({"claims"}),
                  item="attack")
META = ActorSpec("meta", "Meta-reviewer", "reviewer", 0.3,
                 frozenset({"panel", "disagreements", "findings"}), item="decision")
ACTORS: tuple[ActorSpec, ...] = (EDITOR, *REVIEWERS, DEVIL, META)

FULL_PANEL = [a.role for a in ACTORS]
REVIEWER_ROLES = tuple(r.role for r in REVIEWERS)
BY_ROLE: dict[str, ActorSpec] = {a.role: a for a in ACTORS}
REVIEWER_BY_ROLE: dict[str, ReviewerSpec] = {r.role: r for r in REVIEWERS}
ASPECTS = {r.role: r.aspect for r in REVIEWERS}
NAMES = {**{a.role: a.name for a in ACTORS}, "human": "Human"}

register_roles(*(RoleSpec(a.role, a.parent, a.temperature) for a in ACTORS))


def active_reviewers(panel: list[str]) -> list[str]:
    """The reviewer roles in ``panel``, in table order."""
    return [role for role in REVIEWER_ROLES if role in panel]


def minimal_panel(has_experiments: bool) -> list[str]:
    """Editor, the contribution reviewer and one more reviewer, meta (small budgets): the
    experiment reviewer when the paper has experiment sections, else the methodology one."""
    second = "experiment_reviewer" if has_experiments else "methodology_reviewer"
    return [EDITOR.role, "contribution_reviewer", second, META.role]


def display_name(role: str) -> str:
    """'Methodology reviewer' for 'methodology_reviewer'; unknown roles as written."""
    return NAMES.get(role, role)


def message_label(sender: str, round_: int, n: int) -> str:
    """What people read for message ``n`` of ``sender``: 'Methodology reviewer, comment 2'
    ('..., round 2 attack 1' after the first round)."""
    spec = BY_ROLE.get(sender)
    item = spec.item if spec is not None else "message"
    return f"{display_name(sender)}, {f'round {round_} ' if round_ > 1 else ''}{item} {n}"
