"""A JSON reply cut off at its token limit keeps what it finished, when that validates."""

from __future__ import annotations

import json
import logging

import pytest
from pydantic import BaseModel, Field

from papermind.errors import StructuredOutputError
from papermind.llm import build_gateway
from papermind.llm.endpoints import ChatReply
from papermind.llm.structured import salvage_cut_reply
from papermind.llm.testing import Fault, MockOpenAIServer
from tests.support.llm_settings import mock_settings


class Point(BaseModel):
    point: str = ""
    lines: list[str] = Field(default_factory=list)


class Reading(BaseModel):
    """Points of a reading (every field has a default, like the workflow schemas)."""

    method: list[Point] = Field(default_factory=list)
    results: list[Point] = Field(default_factory=list)


class Strict(BaseModel):
    """Every field required."""

    label: str
    score: int


FULL = {"method": [{"point": "uses \"attention\", not recurrence", "lines": ["3:4", "3:5"]},
                   {"point": "trains on 8 GPUs", "lines": ["5:1"]}],
        "results": [{"point": "BLEU 28.4 on WMT14", "lines": ["7:2"]}]}


def _cut(text: str, finish: str = "length") -> ChatReply:
    return ChatReply(text, None, None, 10, 10, finish)


def test_a_cut_reply_keeps_its_complete_elements_and_drops_the_tail() -> None:
    text = json.dumps(FULL)
    cut = text[: text.index("trains on") + 4]  # inside the second point's string
    value, dropped = salvage_cut_reply(Reading, _cut(cut)) or (None, 0)
    assert value == Reading(method=[Point(**FULL["method"][0])])  # the unfinished point is gone
    assert 0 < dropped < 40
    cut = text[: text.index('"7:2"') + 3]  # inside the last list
    value, _ = salvage_cut_reply(Reading, _cut(cut)) or (None, 0)
    assert value is not None and len(value.method) == 2
    assert value.results == [Point(point="BLEU 28.4 on WMT14")]  # its lines never finished


def test_nothing_finished_or_not_cut_or_not_valid_gives_nothing() -> None:
    text = json.dumps(FULL)
    assert salvage_cut_reply(Reading, _cut(text[:30])) is None  # inside the first string
    assert salvage_cut_reply(Reading, _cut('{"method": [{"point": ')) is None
    assert salvage_cut_reply(Reading, _cut(text[:60], finish="stop")) is None
    assert salvage_cut_reply(Strict, _cut('{"label": "accept", "sco')) is None  # score missing
    assert salvage_cut_reply(Reading, _cut("no json at all")) is None


METHODS = ["function_calling", "json_schema", "json_mode"]


@pytest.mark.parametrize("method", METHODS)
async def test_the_gateway_keeps_a_cut_reply_instead_of_asking_again(
        method: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="papermind.llm")
    with MockOpenAIServer(faults={Fault.TRUNCATED: 1.0}) as mock:
        mock.queue(FULL)
        gateway = build_gateway(mock_settings(mock.base_url, structured_method=method))
        value = await gateway.structured("reader", [("user", "read")], Reading)
    assert mock.request_count == 1  # no re-ask: a second full-length answer would be cut too
    assert value.method and value.method[0] == Point(**FULL["method"][0])
    assert "cut off at its token limit" in caplog.text


@pytest.mark.parametrize("method", METHODS)
async def test_a_cut_reply_that_does_not_validate_is_asked_again(method: str) -> None:
    # (with response_format the OpenAI SDK raises LengthFinishReasonError: still a reply)
    with MockOpenAIServer(faults={Fault.TRUNCATED: 1.0}) as mock:
        gateway = build_gateway(mock_settings(mock.base_url, structured_method=method))
        with pytest.raises(StructuredOutputError):
            await gateway.structured("reader", [("user", "rate")], Strict)
    assert mock.request_count == 3
