import pytest

from papermind.domain import SearchHit
from papermind.errors import ConfigError
from papermind.library.query import analyse, plain_plan
from papermind.library.rerank import CrossEncoderReranker


def _hits(*texts):
    return [SearchHit(paper_id="p", chunk_id=f"p:{i}", score=0.5, text=t)
            for i, t in enumerate(texts)]


def test_cross_encoder_hook_reorders_by_pair_scores():
    seen = []

    def score(query, passages):
        seen.append((query, list(passages)))
        return [p.count("f1") for p in passages]

    out = CrossEncoderReranker(score).rerank("f1?", _hits("a", "f1 f1", "f1"), k=2)
    assert [h.text for h in out] == ["f1 f1", "f1"] and [h.score for h in out] == [2.0, 1.0]
    assert seen == [("f1?", ["a", "f1 f1", "f1"])]
    assert CrossEncoderReranker(score).rerank("q", [], k=3) == []


def test_cross_encoder_from_missing_files_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError):
        CrossEncoderReranker.from_onnx(tmp_path / "model.onnx", tmp_path / "tokenizer.json")


def test_query_analysis_strips_question_words_and_sets_priors():
    plan = analyse("What datasets do the authors use for evaluation?")
    assert plan.keywords[:2] == ["datasets", "evaluation"]
    assert "corpora" in plan.keywords and "what" not in [k.lower() for k in plan.keywords]
    assert plan.prior("experiments") > 1.0 and plan.prior("acknowledgements") < 1.0
    assert plan.dense_text == "What datasets do the authors use for evaluation?"
    related = analyse("How does this differ from previous work?")
    assert related.prior("related_work") > related.prior("method")
    assert analyse("what is it").keywords == ["what", "is", "it"]  # nothing left: keep all
    assert plain_plan("What is BLEU?").keywords == ["What", "is", "BLEU"]
