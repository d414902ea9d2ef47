"""Scores and confidences a model writes as text, in any language, still validate."""

from papermind.workflows.review.drafts import _score, _unit


def test_review_drafts_read_scores_written_in_chinese():
    assert _score("7分") == 7.0 and _score("评分：12") == 10.0 and _score(6) == 6.0
    assert _unit("置信度 0.8") == 0.8 and _unit("八") == 0.8
    assert _score("n/a") == "n/a"  # left for validation to refuse (and the gateway to re-ask)
