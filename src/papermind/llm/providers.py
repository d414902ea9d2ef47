"""The provider kinds, one table: adding a kind is one row (its backend builder, the SDKs
whose errors it raises, its health check, its capabilities) plus its name in
``config.ProviderName``, which this module checks.

``EndpointSettings.provider`` names a row; the gateway builds each endpoint's backend with
the row's ``build``, the retry layer describes the row's SDK errors without their text and
``papermind models`` checks an endpoint with the row's ``check``. What the rest of the code
does differently for a kind (plan a small window, trust its verdicts, count its cost) comes
from the row's capability flags, never from testing the kind's name.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, get_args

from papermind.config import EndpointSettings, LLMSettings, ProviderName
from papermind.errors import ConfigError
from papermind.llm.endpoints import ChatBackend

if TYPE_CHECKING:
    from papermind.llm.health import EndpointStatus

BackendBuilder = Callable[[str, EndpointSettings, LLMSettings, Path | None], ChatBackend]
"""(endpoint name, its settings, the llm settings, the library home) -> its backend."""
EndpointCheck = Callable[[str, EndpointSettings, float], Awaitable["EndpointStatus"]]
"""(endpoint name, its settings, timeout in seconds) -> what ``papermind models`` shows."""


def _openai(name: str, endpoint: EndpointSettings, _: LLMSettings, __: Path | None) -> ChatBackend:
    from papermind.llm.endpoints import openai_backend

    return openai_backend(name, endpoint)


def _anthropic(name: str, endpoint: EndpointSettings, _: LLMSettings,
               __: Path | None) -> ChatBackend:
    from papermind.llm.endpoints import anthropic_backend

    return anthropic_backend(name, endpoint)


def _local(name: str, endpoint: EndpointSettings, settings: LLMSettings,
           home: Path | None) -> ChatBackend:
    from papermind.llm.local_backend import ManagedLocalBackend

    return ManagedLocalBackend(name, endpoint, settings.local, home)


async def _check_openai(name: str, endpoint: EndpointSettings, timeout_s: float) -> EndpointStatus:
    from papermind.llm.health import check_openai

    return await check_openai(name, endpoint, timeout_s)


async def _check_local(name: str, endpoint: EndpointSettings, timeout_s: float) -> EndpointStatus:
    from papermind.llm.health import check_local

    return await check_local(name, endpoint, timeout_s)


@dataclass(frozen=True)
class ProviderKind:
    """One kind of model endpoint."""

    name: str
    """The value of ``provider`` in an endpoint's settings."""
    description: str
    build: BackendBuilder | None
    """None: the backend is supplied in code (``build_gateway(backends=...)``, the fakes)."""
    sdk_modules: frozenset[str] = frozenset()
    """Top-level modules of the SDK it calls: their errors are described by status or type,
    never by their text (which may quote a request or a key)."""
    check: EndpointCheck | None = None
    """How ``papermind models`` checks an endpoint of this kind; None: not checked."""
    bundled: bool = False
    """The small bundled model: demo quality; workflows plan for a small window, build the
    reading from passages code selects and leave room for the schema in the prompt."""
    judges: bool = True
    """Its verdicts are trusted: it may judge whether evidence supports a claim and rerank
    search results (the bundled model may not)."""
    free: bool = False
    """Calls cost nothing and need no network: no price is needed, readiness does not probe
    it."""


PROVIDERS: dict[str, ProviderKind] = {p.name: p for p in (
    ProviderKind("openai", "any OpenAI-compatible server (OpenAI, vLLM, llama.cpp, Ollama...)",
                 _openai, frozenset({"openai"}), _check_openai),
    ProviderKind("anthropic", "Anthropic's API (the optional 'anthropic' extra)", _anthropic,
                 frozenset({"anthropic"})),
    ProviderKind("local", "the bundled small model, in its managed llama.cpp server", _local,
                 check=_check_local, bundled=True, judges=False, free=True),
    ProviderKind("fake", "a scripted model supplied in code (tests)", None, free=True),
)}
SDK_MODULES: frozenset[str] = frozenset().union(*(p.sdk_modules for p in PROVIDERS.values()))

if set(PROVIDERS) != set(get_args(ProviderName)):  # pragma: no cover - a developer's slip
    raise RuntimeError(f"config.ProviderName {sorted(get_args(ProviderName))} and the rows of "
                       f"llm.providers {sorted(PROVIDERS)} differ: add the name to both")


def provider_kind(name: str) -> ProviderKind:
    """The row of provider kind ``name``; a ConfigError naming the known kinds otherwise."""
    try:
        return PROVIDERS[name]
    except KeyError:
        raise ConfigError(f"unknown provider {name!r} (known: {', '.join(PROVIDERS)})") from None


def build_backend(name: str, endpoint: EndpointSettings, settings: LLMSettings,
                  home: Path | None = None) -> ChatBackend:
    """The backend of endpoint ``name``, built by its provider kind's row (``home``: the
    library home, where the bundled model's server keeps its state)."""
    kind = provider_kind(endpoint.provider)
    if kind.build is None:
        raise ConfigError(f"endpoint {name!r} has provider {endpoint.provider!r}, which "
                          "needs a backend supplied in code (e.g. fake_gateway in tests)")
    return kind.build(name, endpoint, settings, home)
