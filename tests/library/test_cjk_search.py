"""Chinese BM25 on both storage backends: the segmented bodies and query terms match."""

from __future__ import annotations

import pytest

from papermind.db import SqlDatabase
from papermind.library.search import SearchIndex, SearchOptions
from tests.library.search_fixtures import make_paper

PARAGRAPHS = ["本文提出一种基于注意力机制的中文文本分类模型。",
              "实验在新闻数据集上进行，准确率达到百分之九十五。",
              "相关工作部分回顾了卷积神经网络方法。"]


@pytest.mark.parametrize("lexical_min_rows", [None, 0], ids=["fts5", "tantivy"])
@pytest.mark.parametrize("mode", ["bigram", "none"])
def test_a_chinese_query_finds_its_paragraph(library_db: SqlDatabase, mode: str,
                                             lexical_min_rows: int | None) -> None:
    index = SearchIndex(library_db, None, options=SearchOptions(
        cjk_segmenter=mode, lexical_min_rows=lexical_min_rows))
    index.index_paper(make_paper([("引言", "introduction", PARAGRAPHS)]), embed=False)
    hits = index.search("准确率是多少？", mode="bm25", k=3)
    if mode == "none":  # whole runs: the question shares no token with the paper
        assert hits == []
    else:
        assert hits and "准确率" in hits[0].text
