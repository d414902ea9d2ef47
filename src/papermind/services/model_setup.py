"""What `papermind models` shows: each role's model, and whether each endpoint answers."""

from __future__ import annotations

from papermind.config import LLMSettings
from papermind.errors import ConfigError
from papermind.llm.health import EndpointStatus, RoleRow, check_endpoints, role_table
from papermind.llm.local import INSTALL_HINT, local_model_name, local_status
from papermind.workflows.review import panel  # noqa: F401 - registers the panel's roles

__all__ = ["EndpointStatus", "RoleRow", "endpoint_checks", "real_model_hint", "require_model",
           "role_rows"]


def role_rows(settings: LLMSettings) -> list[RoleRow]:
    """The effective role -> endpoint, provider, model, temperature and token limit."""
    return role_table(settings, local_model_name())


async def endpoint_checks(settings: LLMSettings) -> list[EndpointStatus]:
    """Probe every configured endpoint (GET /models; the local model: installed?)."""
    return await check_endpoints(settings, local_model_name())


def real_model_hint() -> str:
    """How to get real (not demo-quality) results: configure an endpoint."""
    return INSTALL_HINT.split(", or ", 1)[1]


def require_model(settings: LLMSettings) -> None:
    """ConfigError unless some model can answer: a configured endpoint or the bundled one."""
    if not settings.endpoints and not local_status()[0]:
        raise ConfigError("no LLM endpoint is configured and the bundled local model is "
                          "not installed", hint=INSTALL_HINT)
