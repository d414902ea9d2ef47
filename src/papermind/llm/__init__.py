"""Provider layer: model per role, structured output with validation retries, limits,
cache, usage and budgets, the bundled local model, and a test kit (``llm.testing``)."""

from papermind.llm.gateway import Gateway, build_gateway
from papermind.llm.prompts import PromptError, PromptTemplate, fence_untrusted
from papermind.llm.roles import ResolvedRole, RoleSpec, known_roles, register_roles
from papermind.llm.usage import CallRecord, Usage, UsageLedger

__all__ = ["CallRecord", "Gateway", "PromptError", "PromptTemplate", "ResolvedRole",
           "RoleSpec", "Usage", "UsageLedger", "build_gateway", "fence_untrusted", "known_roles",
           "register_roles"]
