from langchain_core.messages import HumanMessage, SystemMessage

from papermind.llm.prompts import language_instruction, with_output_language
from papermind.llm.testing import fake_gateway


def test_english_adds_nothing_and_other_languages_one_rule():
    assert language_instruction("en") == ""
    rule = language_instruction("zh")
    assert "Chinese (中文)" in rule and "Never translate a quote" in rule
    assert "supported / not_enough / contradicted" in rule


def test_the_rule_joins_the_system_message_or_becomes_one():
    with_system = with_output_language([SystemMessage("Be strict."), HumanMessage("Q")], "zh")
    assert with_system[0].content.startswith("Be strict.\n\nOutput language:")
    assert len(with_system) == 2
    bare = with_output_language([HumanMessage("Q")], "ja")
    assert isinstance(bare[0], SystemMessage) and "Japanese" in bare[0].content
    assert with_output_language([HumanMessage("Q")], "en") == [HumanMessage("Q")]


async def test_a_bound_gateway_sends_the_rule_and_keeps_its_language_when_rebound():
    gateway = fake_gateway({"reader": ["ok", "ok"]}).bind(language="zh")
    assert gateway.bind(job_id="j1").language == "zh"
    await gateway.text("reader", [HumanMessage("hello")])
    assert "Output language" in gateway.calls_for(role="reader")[0].text
