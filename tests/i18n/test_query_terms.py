from papermind.i18n.query_terms import (
    APPARATUS_WORDS,
    STOP_WORDS,
    content_words,
    glossary_terms,
    is_stop_word,
)
from papermind.library.query import analyse
from papermind.workflows.deep_qa.query import keywords


def test_stop_words_are_one_list_for_search_and_qa() -> None:
    question = "Which datasets do the authors use to evaluate their methods?"
    assert content_words(question.rstrip("?").split()) == ["datasets", "evaluate"]
    assert analyse(question).keywords[:2] == ["datasets", "evaluate"]
    assert keywords(question) == ["datasets", "evaluate"]


def test_stop_words_ignore_case_and_keep_apparatus_words_apart() -> None:
    assert is_stop_word("The") and not is_stop_word("BERT")
    assert "table" in APPARATUS_WORDS and "table" not in STOP_WORDS
    assert "Table" in analyse("Table 2 accuracy").keywords


def test_glossary_terms_only_for_chinese_text() -> None:
    assert glossary_terms("自注意力的作用") == ["self-attention"]
    assert glossary_terms("What is self-attention?") == []
