"""``fake_gateway``: a real Gateway whose every endpoint is one ScriptedChatModel."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from papermind.config import EndpointSettings, LLMSettings
from papermind.db import SqlDatabase
from papermind.llm.cache import ResponseCache
from papermind.llm.endpoints import ChatBackend, LangChainBackend
from papermind.llm.gateway import Gateway, _Shared, default_factory
from papermind.llm.testing.fake_chat import RecordedCall, ScriptedChatModel
from papermind.llm.usage import UsageLedger
from papermind.llm.usage_store import CallStore

FAKE_ENDPOINT = EndpointSettings(provider="fake", model="scripted", max_retries=2,
                                 backoff_base_s=0.001, backoff_max_s=0.01, timeout_s=30.0)


class FakeGateway(Gateway):
    """A Gateway over a scripted model; ``.model`` scripts more, ``.calls`` lists prompts."""

    model: ScriptedChatModel

    @property
    def calls(self) -> list[RecordedCall]:
        return self.model.calls

    def calls_for(self, role: str | None = None, node: str | None = None) -> list[RecordedCall]:
        """Recorded calls filtered by role and/or node."""
        return [c for c in self.calls if (role is None or c.role == role)
                and (node is None or c.node == node)]


def fake_gateway(script: dict[str, Iterable[Any]] | None = None, *,
                 settings: LLMSettings | None = None, db: SqlDatabase | None = None,
                 local: bool = False, **overrides: Any) -> FakeGateway:
    """A real Gateway (validation, retries, usage, budgets, cache if ``db``) over a fake model.

    ``overrides`` are LLMSettings fields, e.g. ``schema_retries=1``, ``job_token_budget=500``,
    ``prices={"scripted": (1.0, 2.0)}``. Roles in ``settings`` keep their temperatures and
    endpoint names, but every endpoint is served by the scripted model. With ``local`` no
    endpoint is configured, so every role resolves to the bundled local model (offline),
    served by the scripted model too.
    """
    base = settings or LLMSettings()
    endpoints = {name: FAKE_ENDPOINT.model_copy(update={"model": e.model or "scripted"})
                 for name, e in base.endpoints.items()} or {"default": FAKE_ENDPOINT}
    if local:
        endpoints = {}
    llm_settings = base.model_copy(update={"endpoints": endpoints, **overrides})
    model = ScriptedChatModel(script or {})
    backend: ChatBackend = LangChainBackend(model)
    cache = ResponseCache(db) if db is not None and llm_settings.cache else None
    store = CallStore(db) if db is not None else None
    shared = _Shared(llm_settings, default_factory(llm_settings), cache, "scripted",
                     ledger=UsageLedger(store=store))
    shared.backends.update({name: backend for name in [*endpoints, "local"]})
    gateway = FakeGateway(shared)
    gateway.model = model
    return gateway
