"""The relatedness floor: how much of a claim its cited text holds."""

from __future__ import annotations

from papermind.grounding.relatedness import FLOOR, content_keys, relatedness

TEXT = ("Our router sends each token to the two best-scoring experts, which reduces the "
        "compute by 40% while keeping accuracy on GLUE.")


def test_a_restating_claim_is_related() -> None:
    r = relatedness("The router reduces compute by 40% and keeps GLUE accuracy.", TEXT)
    assert r.related and r.share >= 0.8 and r.missing == ()


def test_an_off_topic_claim_is_not() -> None:
    r = relatedness("The method uses a greedy algorithm to select passages.",
                    "Budgeted Evidence Retrieval for Question Answering over Long Documents")
    assert not r.related and r.share < FLOOR
    assert "greedy" in r.missing and "content words are" in r.reason()


def test_a_number_the_text_lacks_counts_as_missing() -> None:
    r = relatedness("The router reduces compute by 45%.", TEXT)
    assert "45%" in r.missing


def test_suffixes_fold_and_chinese_is_compared_by_bigrams() -> None:
    assert relatedness("improvements of routing", "routing improves").share == 1.0
    assert set(content_keys("稀疏路由")) == {"稀疏", "疏路", "路由"}
    assert relatedness("稀疏路由降低计算", "我们的稀疏路由方法降低了计算量").related


def test_across_languages_only_numbers_and_latin_names_are_compared() -> None:
    assert relatedness("该路由器将计算量减少了40%，并保持GLUE准确率。", TEXT).related
    off = relatedness("该方法在ImageNet上达到95%。", TEXT)
    assert not off.related and set(off.missing) == {"imagenet", "95%"}
    assert relatedness("这是一个很好的方法。", TEXT).words == 0  # nothing to measure
