"""What `papermind models` shows: each role's model, and whether each endpoint answers."""

from __future__ import annotations

from typing import Any

from papermind.config import LLMSettings, Settings
from papermind.errors import ConfigError
from papermind.llm.health import EndpointStatus, RoleRow, check_endpoints, role_table
from papermind.llm.local import INSTALL_HINT, local_model_name, local_status
from papermind.workflows.review import panel  # noqa: F401 - registers the panel's roles

__all__ = ["EndpointStatus", "RoleRow", "describe_local_server", "endpoint_checks",
           "local_server_info", "real_model_hint", "require_model", "role_rows"]


def role_rows(settings: LLMSettings) -> list[RoleRow]:
    """The effective role -> endpoint, provider, model, temperature and token limit."""
    return role_table(settings, local_model_name(settings.local.model))


async def endpoint_checks(settings: LLMSettings) -> list[EndpointStatus]:
    """Probe every configured endpoint (GET /models; the local model: installed?)."""
    return await check_endpoints(settings, local_model_name(settings.local.model))


def real_model_hint() -> str:
    """How to get real (not demo-quality) results: configure an endpoint."""
    return INSTALL_HINT.split(", or ", 1)[1]


def require_model(settings: LLMSettings) -> None:
    """ConfigError unless some model can answer: a configured endpoint or the bundled one."""
    if not settings.endpoints and not local_status(settings.local.model)[0]:
        raise ConfigError("no LLM endpoint is configured and the bundled local model is "
                          "not installed", hint=INSTALL_HINT)


def local_server_info(settings: Settings) -> dict[str, Any]:
    """The bundled model's server for this library home: running (where, how) or not.

    Its token is not shown: it is in ``state_file`` (readable by its owner only), for a
    configured endpoint that points at the server.
    """
    from papermind.llm.local_server import read_state, scoped_home, server_dir

    folder = server_dir(scoped_home(settings.home_dir, settings.llm.local))
    state = read_state(folder)
    info: dict[str, Any] = {"running": state is not None,
                            "idle_stop_s": settings.llm.local.idle_stop_s,
                            "state_file": str(folder / "server.json")}
    if state is not None:
        info.update(base_url=state.base_url, model=state.model, pid=state.pid,
                    threads=state.threads, parallel=state.parallel)
    return info


def describe_local_server(info: dict[str, Any]) -> str:
    """One line for ``papermind models``."""
    if not info["running"]:
        return (f"bundled model server: not running (starts on first use, stops after "
                f"{info['idle_stop_s']:g} s idle)")
    return (f"bundled model server: {info['base_url']} ({info['model']}, pid {info['pid']}, "
            f"{info['threads']} threads, {info['parallel']} calls at once, more queue; stops "
            f"after {info['idle_stop_s']:g} s idle; its token: {info['state_file']})")
