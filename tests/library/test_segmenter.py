import importlib.util

import pytest

from papermind.library.segmenter import Segmenter

needs_jieba = pytest.mark.skipif(importlib.util.find_spec("jieba") is None,
                                 reason="jieba (extra 'zh') is not installed")


@needs_jieba
def test_jieba_splits_chinese_runs_into_words_and_leaves_latin_alone():
    seg = Segmenter("jieba")
    text = seg.index_text("本文提出基于注意力机制的BERT模型, accuracy 95.3%")
    tokens = text.split()
    assert {"注意力", "机制", "模型"} <= set(tokens)
    assert "BERT" in tokens and "accuracy" in tokens and "95.3%" in tokens


def test_bigrams_overlap_and_queries_drop_function_words():
    seg = Segmenter("bigram")
    assert seg.index_text("注意力机制").split() == ["注意", "意力", "力机", "机制"]
    assert seg.index_text("在 正 文 开 始").split() == ["在正", "正文", "文开", "开始"]
    assert seg.query_terms("注意力机制？")[:2] == ["注意", "意力"]


@needs_jieba
def test_jieba_queries_drop_function_words():
    assert Segmenter("jieba").query_terms("这篇论文的注意力机制是什么？") == ["注意", "注意力", "机制"]


def test_none_keeps_runs_whole_and_a_bad_mode_is_refused():
    assert Segmenter("none").index_text("注意力机制") == "注意力机制"
    assert Segmenter("none").query_terms("注意力机制？") == ["注意力机制"]
    with pytest.raises(ValueError, match="unknown CJK segmenter"):
        Segmenter("words")  # type: ignore[arg-type]
