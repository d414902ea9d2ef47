import pytest
from pydantic import ValidationError

from papermind.domain.job import JobRequest


def test_a_job_may_ask_for_a_report_language():
    assert JobRequest(kind="reading", paper_id="p", language="zh-CN").language == "zh-CN"
    assert JobRequest(kind="question", question="q").language is None
    with pytest.raises(ValidationError):
        JobRequest(kind="reading", paper_id="p", language="chinese please")
