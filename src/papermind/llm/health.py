"""What ``papermind models`` shows: the effective role -> model table and endpoint checks."""

from __future__ import annotations

import asyncio
import time
from dataclasses import asdict, dataclass

import httpx

from papermind.config import EndpointSettings, LLMSettings
from papermind.errors import ConfigError
from papermind.llm.guard import check_endpoint_allowed
from papermind.llm.providers import provider_kind
from papermind.llm.roles import known_roles, resolve_role


@dataclass(frozen=True)
class RoleRow:
    role: str
    endpoint: str
    provider: str
    model: str
    temperature: float
    max_tokens: int
    bundled: bool = False
    """Runs on the bundled model (demo quality)."""


@dataclass(frozen=True)
class EndpointStatus:
    endpoint: str
    provider: str
    model: str
    ok: bool
    detail: str
    latency_s: float | None = None

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def role_table(settings: LLMSettings, local_model: str) -> list[RoleRow]:
    """Every known role (and any configured extra role) with what it resolves to."""
    known = known_roles()
    roles = list(known) + sorted(set(settings.roles) - set(known) - {"default"})
    rows = []
    for role in roles:
        r = resolve_role(settings, role, local_model)
        rows.append(RoleRow(role, r.endpoint_name, r.endpoint.provider, r.model, r.temperature,
                            r.max_tokens, r.kind.bundled))
    return rows


async def check_endpoints(settings: LLMSettings, local_model: str,
                          timeout_s: float = 10.0) -> list[EndpointStatus]:
    """Probe every endpoint some role uses (concurrently)."""
    used: dict[str, EndpointSettings] = {}
    for row in role_table(settings, local_model):
        used.setdefault(row.endpoint, resolve_role(settings, row.role, local_model).endpoint)
    for name, endpoint in settings.endpoints.items():
        used.setdefault(name, endpoint)
    return list(await asyncio.gather(*[
        check_endpoint(name, endpoint, timeout_s) for name, endpoint in used.items()]))


async def check_endpoint(name: str, endpoint: EndpointSettings,
                         timeout_s: float = 10.0) -> EndpointStatus:
    """Is the endpoint reachable, and does it serve the configured model? (As its provider
    kind's row checks it; a kind without a check is reported as not checked.)"""
    check = provider_kind(endpoint.provider).check
    if check is None:
        return EndpointStatus(name, endpoint.provider, endpoint.model, True,
                              f"not checked (provider {endpoint.provider})")
    return await check(name, endpoint, timeout_s)


async def check_local(name: str, endpoint: EndpointSettings, _: float) -> EndpointStatus:
    """The bundled model: is it installed and loadable?"""
    from papermind.llm.local import local_status

    ok, detail = local_status(endpoint.model or "auto")
    return EndpointStatus(name, "local", endpoint.model, ok, detail)


async def check_openai(name: str, endpoint: EndpointSettings, timeout_s: float) -> EndpointStatus:
    """An OpenAI-compatible server: GET /models answers and lists the model."""
    try:
        check_endpoint_allowed(name, endpoint.base_url)
    except ConfigError as err:
        return EndpointStatus(name, endpoint.provider, endpoint.model, False, err.message)
    started = time.perf_counter()
    ok, detail = await _probe_models(endpoint, timeout_s)
    return EndpointStatus(name, endpoint.provider, endpoint.model, ok, detail,
                          round(time.perf_counter() - started, 3))


async def _probe_models(endpoint: EndpointSettings, timeout_s: float) -> tuple[bool, str]:
    base = (endpoint.base_url or "https://api.openai.com/v1").rstrip("/")
    headers = {"Authorization": f"Bearer {endpoint.api_key}"} if endpoint.api_key else {}
    try:
        async with httpx.AsyncClient(timeout=timeout_s) as client:
            response = await client.get(f"{base}/models", headers=headers)
    except httpx.HTTPError as err:
        return False, f"unreachable ({type(err).__name__})"
    if response.status_code in (401, 403):
        return False, f"HTTP {response.status_code}: check the api_key"
    if response.status_code != 200:
        return False, f"HTTP {response.status_code} from {base}/models"
    try:
        served = {str(m.get("id")) for m in response.json().get("data", [])}
    except (ValueError, AttributeError):
        served = set()
    if served and endpoint.model not in served:
        return False, (f"reachable, but model {endpoint.model!r} is not among the "
                       f"{len(served)} it serves")
    return True, "reachable" + (", model served" if served else "")
