"""Model per role: each role resolves to (endpoint, model, temperature, max tokens).

Resolution walks the role's chain (e.g. experiment_reviewer -> reviewer -> default) and takes
each field from the first role setting that sets it, so one model can serve every role or
each role its own. With no endpoint configured at all, every role uses the bundled local model.
"""

from __future__ import annotations

from dataclasses import dataclass

from papermind.config import EndpointSettings, LLMSettings
from papermind.errors import ConfigError

ROLE_PARENTS: dict[str, str] = {
    "contribution_reviewer": "reviewer",
    "methodology_reviewer": "reviewer",
    "experiment_reviewer": "reviewer",
    "devil": "reviewer",
    "meta": "reviewer",
    "checker": "reader",
    "editor": "reader",
    "questioner": "reader",
    "distiller": "reader",
    "answerer": "planner",
    "reranker": "planner",
}
"""A role without its own settings inherits its parent's; every chain ends at 'default'."""

KNOWN_ROLES = ("reader", "checker", "questioner", "editor", "reviewer", "contribution_reviewer",
               "methodology_reviewer", "experiment_reviewer", "devil", "meta", "planner",
               "answerer", "reranker", "distiller")

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
    def window(self) -> int:
        """Context tokens to plan a prompt and its answer for."""
        if self.endpoint.provider == "local":
            return min(self.endpoint.context_tokens, LOCAL_PROMPT_WINDOW)
        return self.endpoint.context_tokens


def role_chain(role: str) -> list[str]:
    """The role, its ancestors, then 'default'."""
    chain = [role]
    while chain[-1] in ROLE_PARENTS and len(chain) < 8:
        chain.append(ROLE_PARENTS[chain[-1]])
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
                            if n in settings.role_temperatures), settings.default_temperature)
    max_tokens = next((r.max_tokens for r in found if r.max_tokens), settings.default_max_tokens)
    model = next((r.model for r in found if r.model), None) or endpoint.model
    return ResolvedRole(role, name, endpoint, model, temperature, max_tokens)


def endpoint_by_name(settings: LLMSettings, name: str,
                     local_model: str = "") -> EndpointSettings:
    """A configured endpoint, or the implicit bundled one named 'local'."""
    if name in settings.endpoints:
        return settings.endpoints[name]
    if name == LOCAL_ENDPOINT:
        return EndpointSettings(provider="local", model=local_model, max_concurrency=1,
                                timeout_s=600.0, max_retries=0, context_tokens=8192)
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
