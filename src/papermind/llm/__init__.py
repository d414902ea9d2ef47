"""Provider layer: model per role, structured output with validation retries, limits,
cache, usage and budgets, the bundled local model, and a test kit (``llm.testing``)."""

from papermind.llm.gateway import Gateway, build_gateway
from papermind.llm.prompts import PromptError, PromptTemplate, fence_untrusted
from papermind.llm.roles import KNOWN_ROLES, ResolvedRole
from papermind.llm.usage import CallRecord, Usage, UsageLedger

__all__ = ["KNOWN_ROLES", "CallRecord", "Gateway", "PromptError", "PromptTemplate",
           "ResolvedRole", "Usage", "UsageLedger", "build_gateway", "fence_untrusted"]
