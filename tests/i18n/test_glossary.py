from papermind.i18n.glossary import GLOSSARY, english_terms
from papermind.library.query import analyse
from papermind.workflows.deep_qa.query import keywords


def test_chinese_terms_give_english_search_words_longest_first():
    assert english_terms("这个数据集包含多少条推文？") == ["dataset", "data", "tweets", "number"]
    assert english_terms("自注意力的作用") == ["self-attention"]
    assert english_terms("What is BERT?") == []
    assert all(GLOSSARY.values())


def test_bm25_keywords_and_qa_keywords_carry_the_english_terms():
    assert {"accuracy", "baseline"} <= set(analyse("模型的准确率比基线高多少？").keywords)
    assert "tweets" in keywords("这个数据集包含多少条推文？")
    assert keywords("How many tweets?") == ["tweets"]
