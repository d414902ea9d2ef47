"""The Gateway: the one door from workflows to language models.

``structured(role, messages, Schema)`` and ``text(role, messages)`` resolve the role to its
endpoint and model, consult the cache, send with retries under the endpoint's limits,
validate structured output (re-asking with the validation error), record usage per call /
node / job, and enforce the job's token budget.
"""

from __future__ import annotations

import copy
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from langchain_core.messages import BaseMessage, convert_to_messages
from pydantic import BaseModel

from papermind.config import EndpointSettings, LLMSettings
from papermind.db import SqlDatabase
from papermind.errors import BudgetExceededError, ProviderError, StructuredOutputError
from papermind.llm.cache import ResponseCache, cache_key
from papermind.llm.endpoints import ChatBackend, ChatReply, ChatRequest, SchemaSpec
from papermind.llm.prompts import with_output_language
from papermind.llm.resilience import (
    EndpointFailed,
    EndpointLimiter,
    Limiter,
    LimiterFactory,
    RetryPolicy,
    with_retries,
)
from papermind.llm.roles import ResolvedRole, endpoint_by_name, known_roles, resolve_role
from papermind.llm.structured import (
    InvalidOutput,
    feedback,
    parse_reply,
    salvage_cut_reply,
    schema_spec,
    validate,
)
from papermind.llm.usage import CallRecord, UsageLedger, cost_usd

log = logging.getLogger("papermind.llm")
T = TypeVar("T", bound=BaseModel)
Messages = Sequence[BaseMessage] | Sequence[tuple[str, str]]
BackendFactory = Callable[[str, EndpointSettings], ChatBackend]


@dataclass
class _Tally:
    """Tokens and tries of one gateway call, across attempts and endpoints."""

    tokens_in: int = 0
    tokens_out: int = 0
    attempts: int = 0
    endpoint: str = ""
    model: str = ""

    def add(self, reply: ChatReply, tries: int) -> None:
        self.tokens_in += reply.tokens_in
        self.tokens_out += reply.tokens_out
        self.attempts += tries

    def as_dict(self) -> dict[str, int]:
        return {"tokens_in": self.tokens_in, "tokens_out": self.tokens_out,
                "attempts": self.attempts}


@dataclass
class _Shared:
    """State shared by a gateway and every view ``bind`` makes of it."""

    settings: LLMSettings
    factory: BackendFactory
    cache: ResponseCache | None
    local_model: str
    ledger: UsageLedger = field(default_factory=UsageLedger)
    backends: dict[str, ChatBackend] = field(default_factory=dict)
    limiters: dict[str, Limiter] = field(default_factory=dict)
    limiter_factory: LimiterFactory | None = None

    def backend(self, name: str, endpoint: EndpointSettings) -> ChatBackend:
        if name not in self.backends:
            self.backends[name] = self.factory(name, endpoint)
        return self.backends[name]

    def limiter(self, name: str, endpoint: EndpointSettings) -> Limiter:
        if name not in self.limiters:
            self.limiters[name] = (
                self.limiter_factory(name, endpoint) if self.limiter_factory is not None
                else EndpointLimiter(endpoint.max_concurrency, endpoint.requests_per_minute))
        return self.limiters[name]


class Gateway:
    """Model calls by role, with validation, retries, limits, cache, usage and budgets."""

    def __init__(self, shared: _Shared, *, job_id: str | None = None,
                 token_budget: int | None = None) -> None:
        self._shared = shared
        self.job_id = job_id
        self.token_budget = token_budget
        self.language = "en"
        """Output language of free text (the prompts' language rule); quotes stay verbatim."""

    def bind(self, *, job_id: str | None = None, token_budget: int | None = None,
             language: str | None = None) -> Gateway:
        """A view whose calls count toward ``job_id``, stop past ``token_budget`` tokens and
        ask for free text in ``language`` (None: this view's language)."""
        view = copy.copy(self)
        view.job_id = job_id
        view.language = language or self.language
        view.token_budget = token_budget if token_budget is not None else (
            self._shared.settings.job_token_budget if job_id is not None else None)
        return view

    @property
    def usage(self) -> UsageLedger:
        """Every call's record; restricted to this view's job when bound to one."""
        return self._shared.ledger.for_job(self.job_id)

    @property
    def settings(self) -> LLMSettings:
        return self._shared.settings

    def resolve(self, role: str) -> ResolvedRole:
        return resolve_role(self._shared.settings, role, self._shared.local_model)

    def model_for(self, role: str) -> str:
        """The model name ``role`` resolves to (for reports)."""
        return self.resolve(role).model

    @property
    def is_demo_quality(self) -> bool:
        """True when any known role runs on the bundled local model."""
        return any(self.resolve(r).kind.bundled for r in ("default", *known_roles()))

    async def structured(self, role: str, messages: Messages, schema: type[T], *,
                         node: str | None = None) -> T:
        """A validated ``schema`` instance (StructuredOutputError after the retry bound)."""
        payload = await self._call(role, node, messages, schema)
        return validate(schema, payload) if not isinstance(payload, schema) else payload

    async def text(self, role: str, messages: Messages, *, node: str | None = None) -> str:
        """The model's text reply."""
        return str(await self._call(role, node, messages, None))

    async def _call(self, role: str, node: str | None, messages: Messages,
                    schema: type[BaseModel] | None) -> Any:
        resolved = self.resolve(role)
        self._check_budget(before=True)
        msgs = with_output_language(list(convert_to_messages(messages)), self.language)
        spec = schema_spec(schema) if schema is not None else None
        key = self._key(resolved, msgs, spec)
        started = time.perf_counter()
        if key is not None and self._shared.cache is not None:
            hit = self._shared.cache.get(key)
            if hit is not None:
                self._record(resolved, node, _Tally(endpoint=resolved.endpoint_name,
                             model=resolved.model), started, cached=True)
                return hit.payload
        tally = _Tally(endpoint=resolved.endpoint_name, model=resolved.model)
        try:
            result, stored = await self._attempts(resolved, node, msgs, schema, spec, tally)
        except ProviderError:
            self._record(resolved, node, tally, started, ok=False)
            self._check_budget(before=False)
            raise
        self._record(resolved, node, tally, started)
        if key is not None and self._shared.cache is not None:
            self._shared.cache.put(key, endpoint=tally.endpoint, model=tally.model,
                                   payload=stored, tokens_in=tally.tokens_in,
                                   tokens_out=tally.tokens_out)
        self._check_budget(before=False)
        return result

    async def _attempts(self, resolved: ResolvedRole, node: str | None, msgs: list[BaseMessage],
                        schema: type[BaseModel] | None, spec: SchemaSpec | None,
                        tally: _Tally) -> tuple[Any, Any]:
        """(result, cacheable payload): one send for text; validate-and-re-ask for schemas."""
        if schema is None or spec is None:
            reply = await self._send(resolved, node, msgs, None, tally)
            return reply.content, reply.content
        limit = 1 + max(0, self._shared.settings.schema_retries)
        conversation = list(msgs)
        problem = InvalidOutput("no attempt made")
        for attempt in range(1, limit + 1):
            reply = await self._send(resolved, node, conversation, spec, tally)
            try:
                value = parse_reply(schema, reply)
                return value, value.model_dump(mode="json")
            except InvalidOutput as err:
                salvaged = salvage_cut_reply(schema, reply)
                if salvaged is not None:
                    value, dropped = salvaged
                    log.warning("%s from %s/%s was cut off at its token limit (%s); kept what "
                                "was complete, dropped its last %d characters", spec.name,
                                tally.endpoint, tally.model, resolved.max_tokens, dropped)
                    return value, value.model_dump(mode="json")
                problem = err
                log.warning("invalid %s from %s/%s (attempt %d/%d): %s", spec.name,
                            tally.endpoint, tally.model, attempt, limit, err)
                conversation = [*conversation, *feedback(reply, err, spec)]
        raise StructuredOutputError(
            f"role {resolved.role!r} ({tally.endpoint}/{tally.model}) gave no valid "
            f"{spec.name} after {limit} attempts: {problem.reason}", attempts=limit,
            usage=tally.as_dict(), hint="try a stronger model for this role")

    async def _send(self, resolved: ResolvedRole, node: str | None, msgs: list[BaseMessage],
                    spec: SchemaSpec | None, tally: _Tally) -> ChatReply:
        """One request with transport retries, moving to fallback endpoints if it fails."""
        targets = self._targets(resolved)
        for index, (name, endpoint, model) in enumerate(targets):
            request = ChatRequest(msgs, model, resolved.temperature, resolved.max_tokens, spec,
                                  endpoint.structured_method,
                                  {"papermind_role": resolved.role, "papermind_node": node,
                                   "papermind_schema": spec.name if spec else None})
            tally.endpoint, tally.model = name, model
            try:
                reply, tries = await self._try_endpoint(name, endpoint, request)
            except EndpointFailed as err:
                tally.attempts += err.attempts
                if index + 1 == len(targets):
                    raise
                log.warning("%s; falling back to endpoint %r", err, targets[index + 1][0])
                continue
            tally.add(reply, tries)
            return reply
        raise AssertionError("unreachable")

    async def _try_endpoint(self, name: str, endpoint: EndpointSettings,
                            request: ChatRequest) -> tuple[ChatReply, int]:
        backend = self._shared.backend(name, endpoint)
        limiter = self._shared.limiter(name, endpoint)
        # every model, the bundled one included, is behind an endpoint a timeout can leave
        policy = RetryPolicy(endpoint.max_retries, endpoint.timeout_s, endpoint.backoff_base_s,
                             endpoint.backoff_max_s)

        async def attempt() -> ChatReply:
            return await limiter.run(lambda: backend.complete(request), policy.timeout_s)

        return await with_retries(attempt, policy, where=f"endpoint {name!r} ({request.model})")

    def _targets(self, resolved: ResolvedRole) -> list[tuple[str, EndpointSettings, str]]:
        targets = [(resolved.endpoint_name, resolved.endpoint, resolved.model)]
        seen = {resolved.endpoint_name}
        fallback = resolved.endpoint.fallback
        while fallback and fallback not in seen and len(targets) < 4:
            endpoint = endpoint_by_name(self._shared.settings, fallback, self._shared.local_model)
            targets.append((fallback, endpoint, endpoint.model))
            seen.add(fallback)
            fallback = endpoint.fallback
        return targets

    def _key(self, resolved: ResolvedRole, msgs: list[BaseMessage],
             spec: SchemaSpec | None) -> str | None:
        if self._shared.cache is None:
            return None
        return cache_key(endpoint=f"{resolved.endpoint_name}:{resolved.endpoint.base_url}",
                         model=resolved.model, messages=msgs,
                         schema=spec.json_schema if spec else None,
                         temperature=resolved.temperature, max_tokens=resolved.max_tokens,
                         method=resolved.endpoint.structured_method)

    def _record(self, resolved: ResolvedRole, node: str | None, tally: _Tally, started: float,
                *, cached: bool = False, ok: bool = True) -> None:
        cost = cost_usd(self._shared.settings.prices, tally.model, tally.tokens_in,
                        tally.tokens_out)
        record = CallRecord(resolved.role, node, self.job_id, tally.endpoint, tally.model,
                            tally.tokens_in, tally.tokens_out, cost, cached, tally.attempts,
                            time.perf_counter() - started, ok)
        self._shared.ledger.add(record)
        log.debug("llm call %s", record)

    def _check_budget(self, *, before: bool) -> None:
        if self.token_budget is None:
            return
        used = self.usage.total()
        if used.tokens > self.token_budget or (before and used.tokens >= self.token_budget):
            raise BudgetExceededError(
                f"job {self.job_id or '(unbound)'} used {used.tokens} tokens, over its budget "
                f"of {self.token_budget}", usage={"tokens_in": used.tokens_in,
                                                  "tokens_out": used.tokens_out,
                                                  "calls": used.calls})


def build_gateway(settings: LLMSettings, *, db: SqlDatabase | None = None,
                  backends: Mapping[str, ChatBackend] | None = None,
                  factory: BackendFactory | None = None,
                  local_model: str | None = None,
                  limiter_factory: LimiterFactory | None = None,
                  home: Path | None = None) -> Gateway:
    """A gateway for ``settings``; ``db`` enables the persistent cache (if settings allow)
    and keeps every job's calls there, so usage and budgets span a job's attempts.

    ``backends`` pre-supplies backends by endpoint name (tests, custom providers);
    other endpoints are built on first use by ``factory`` (default: by provider);
    ``local_model`` names the model behind the 'local' endpoint (default: the bundled one);
    ``limiter_factory`` builds each endpoint's limiter (default: this process's own
    ``EndpointLimiter``; ``shared_limiter.shared_limiters`` counts every worker's calls).
    """
    from papermind.llm.local import local_model_name
    from papermind.llm.usage_store import CallStore

    cache = ResponseCache(db) if db is not None and settings.cache else None
    local = local_model or local_model_name(settings.local.model)
    shared = _Shared(settings, factory or default_factory(settings, home), cache, local,
                     ledger=UsageLedger(store=CallStore(db) if db is not None else None),
                     limiter_factory=limiter_factory)
    shared.backends.update(backends or {})
    return Gateway(shared)


def default_factory(settings: LLMSettings, home: Path | None = None) -> BackendFactory:
    """Backends by provider kind (the rows of ``llm.providers``)."""
    from papermind.llm.providers import build_backend

    def build(name: str, endpoint: EndpointSettings) -> ChatBackend:
        return build_backend(name, endpoint, settings, home)
    return build
