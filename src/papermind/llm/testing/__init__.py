"""Test kit shipped with the package: scripted fake model, mock OpenAI server, network guard."""

from papermind.llm.guard import block_real_endpoints, check_endpoint_allowed
from papermind.llm.testing.fake_chat import RecordedCall, ScriptedChatModel, ScriptExhaustedError
from papermind.llm.testing.fake_gateway import FakeGateway, fake_gateway
from papermind.llm.testing.mock_server import Fault, MockOpenAIServer

__all__ = ["Fault", "FakeGateway", "MockOpenAIServer", "RecordedCall", "ScriptExhaustedError",
           "ScriptedChatModel", "block_real_endpoints", "check_endpoint_allowed", "fake_gateway"]
