"""Model per role: each role resolves to (endpoint, model, temperature, max tokens).

Resolution walks the role's chain (e.g. experiment_reviewer -> reviewer -> default) and takes
each field from the first role setting that sets it, so one model can serve every role or
each role its own. A temperature comes from the role settings, else ``llm.role_temperatures``,
else the seed temperature of the role catalogue (each along the chain). With no endpoint configured at all, every role uses the bundled local model.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from papermind.config import EndpointSettings, LLMSettings
from papermind.errors import ConfigError

if TYPE_CHECKING:
    from papermind.llm.providers import ProviderKind


@dataclass(frozen=True)
class RoleSpec:
    """A model role: the role it inherits settings from, and its seed temperature."""

    name: str
    parent: str
    """The role whose model settings this one inherits unless it sets its own."""
    temperature: float
    max_tokens: int | None = None
    """Seed output cap (a role whose answer is one or two sentences); settings override it."""


_CATALOGUE: dict[str, RoleSpec] = {spec.name: spec for spec in (
    RoleSpec("reader", "default", 0.2),
    RoleSpec("checker", "reader", 0.0),
    RoleSpec("questioner", "reader", 0.7),
    RoleSpec("explainer", "reader", 0.2, max_tokens=96),
    RoleSpec("question_writer", "questioner", 0.7, max_tokens=96),
    RoleSpec("distiller", "reader", 0.2),
    RoleSpec("reviewer", "default", 0.4),
    RoleSpec("commenter", "reviewer", 0.2, max_tokens=80),
    RoleSpec("planner", "default", 0.3),
    RoleSpec("answerer", "planner", 0.2),
    RoleSpec("reranker", "checker", 0.0, max_tokens=768),
)}
"""The roles of the reading, QA and search code; the review panel registers its own
(``papermind.workflows.review.panel``). A role without its own settings inherits its
parent's; every chain ends at 'default'. The search 'reranker' judges relevance, so it
inherits the checker's model (``llm.roles.reranker`` gives it its own); its output is one
short score per passage, hence its seed cap."""


def register_roles(*specs: RoleSpec) -> None:
    """Add roles to the catalogue (a workflow declares its roles once, from its own table).

    Registering the same spec twice is harmless; a different spec under a taken name fails."""
    for spec in specs:
        known = _CATALOGUE.get(spec.name)
        if known is not None and known != spec:
            raise ValueError(f"role {spec.name!r} is already registered as {known}")
        if spec.parent != "default" and spec.parent not in _CATALOGUE and spec.parent != spec.name:
            raise ValueError(f"role {spec.name!r} inherits from unknown role {spec.parent!r}")
        _CATALOGUE[spec.name] = spec


def known_roles() -> tuple[str, ...]:
    """Every registered role, in registration order."""
    return tuple(_CATALOGUE)


def role_spec(role: str) -> RoleSpec | None:
    return _CATALOGUE.get(role)


LOCAL_ENDPOINT = "local"
LOCAL_PROMPT_WINDOW = 4096
"""Tokens a workflow should plan a prompt plus answer for on the bundled model: half its n_ctx,
because a 0.5B model on a CPU needs minutes per 4k-token prompt."""


@dataclass(frozen=True)
class ResolvedRole:
    """Everything a call for one role needs to know about its model."""

    role: str
    endpoint_name: str
    endpoint: EndpointSettings
    model: str
    temperature: float
    max_tokens: int

    @property
    def kind(self) -> ProviderKind:
        """The endpoint's provider row: what it can do (``bundled``, ``judges``, ``free``)."""
        from papermind.llm.providers import provider_kind

        return provider_kind(self.endpoint.provider)

    @property
    def window(self) -> int:
        """Context tokens to plan a prompt and its answer for."""
        if self.kind.bundled:
            return min(self.endpoint.context_tokens, LOCAL_PROMPT_WINDOW)
        return self.endpoint.context_tokens


def role_chain(role: str) -> list[str]:
    """The role, its ancestors, then 'default'."""
    chain = [role]
    while chain[-1] in _CATALOGUE and len(chain) < 8:
        chain.append(_CATALOGUE[chain[-1]].parent)
    if chain[-1] != "default":
        chain.append("default")
    return chain


def resolve_role(settings: LLMSettings, role: str, local_model: str = "") -> ResolvedRole:
    """The effective model settings of ``role`` (ConfigError if it names a missing endpoint)."""
    chain = role_chain(role)
    found = [settings.roles[name] for name in chain if name in settings.roles]
    endpoint_name = next((r.endpoint for r in found if r.endpoint), None)
    name, endpoint = _endpoint(settings, endpoint_name, role, local_model)
    temperature = next((r.temperature for r in found if r.temperature is not None), None)
    if temperature is None:
        temperature = next((settings.role_temperatures[n] for n in chain
                            if n in settings.role_temperatures), None)
    if temperature is None:
        temperature = next((_CATALOGUE[n].temperature for n in chain if n in _CATALOGUE),
                           settings.default_temperature)
    max_tokens = next((r.max_tokens for r in found if r.max_tokens), None) or next(
        (seed for n in chain if n in _CATALOGUE and (seed := _CATALOGUE[n].max_tokens)),
        settings.default_max_tokens)
    model = next((r.model for r in found if r.model), None) or endpoint.model
    return ResolvedRole(role, name, endpoint, model, temperature, max_tokens)


def endpoint_by_name(settings: LLMSettings, name: str,
                     local_model: str = "") -> EndpointSettings:
    """A configured endpoint, or the implicit bundled one named 'local'."""
    if name in settings.endpoints:
        return settings.endpoints[name]
    if name == LOCAL_ENDPOINT:
        local = settings.local
        # the server queues what it cannot decode at once, so a call may wait behind other
        # processes' calls: a long timeout; one retry restarts a server that was killed
        return EndpointSettings(provider="local", model=local_model,
                                max_concurrency=local.parallel, timeout_s=3600.0,
                                max_retries=1, context_tokens=local.context_tokens)
    raise ConfigError(f"no LLM endpoint named {name!r}",
                      hint=f"configured endpoints: {sorted(settings.endpoints) or 'none'}")


def _endpoint(settings: LLMSettings, wanted: str | None, role: str,
              local_model: str) -> tuple[str, EndpointSettings]:
    if wanted is not None and wanted != "default":
        if wanted not in settings.endpoints and wanted != LOCAL_ENDPOINT:
            raise ConfigError(f"role {role!r} uses endpoint {wanted!r}, which is not configured",
                              hint=f"configured endpoints: {sorted(settings.endpoints) or 'none'}")
        return wanted, endpoint_by_name(settings, wanted, local_model)
    if "default" in settings.endpoints:
        return "default", settings.endpoints["default"]
    if settings.endpoints:
        first = next(iter(settings.endpoints))
        return first, settings.endpoints[first]
    return LOCAL_ENDPOINT, endpoint_by_name(settings, LOCAL_ENDPOINT, local_model)
