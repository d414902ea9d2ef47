"""Passages code selects for an extractive reading: from the whole paper, part by part."""

from __future__ import annotations

from papermind.domain import Paper
from papermind.ingest import parse_bytes
from papermind.workflows.deep_reading.parts import split_sentences
from papermind.workflows.deep_reading.passages import parse_symbols, select

PAPER = """# Sparse Routing

## Abstract

We propose a sparse router that sends each token to two experts.

## 1 Introduction

In this work we propose a sparse router that sends every token to two experts only.
Large models are expensive, and most of their compute is spent on a few experts.

## 2 Method

Our method scores each token with a linear layer and keeps the two best experts.
The router computes a score for every expert of the layer and every token of the batch.

$$ s = W x $$

where x is the token embedding, W denotes the router weights and k is the number of experts.

## 3 Experiments

We evaluate on GLUE and SQuAD against a dense baseline and the Switch Transformer model.
We report accuracy and F1 on the development sets of both benchmarks used in this work.
Removing the load loss in the ablation drops accuracy by 3.2 points on GLUE tasks.

## 4 Results

Our router improves accuracy by 2.1 points over the dense baseline while using 40% less compute.

## 5 Conclusion

A limitation is that the router assumes a fixed number of experts per layer at training time.
"""


def _paper() -> Paper:
    paper = parse_bytes(PAPER.encode(), "routing.md")
    from papermind.domain import Equation
    equations = [Equation(**p.model_dump(), label="1") for p in paper.paragraphs
                 if p.text.startswith("$$")]
    kept = [p for p in paper.paragraphs if not p.text.startswith("$$")]
    return paper.model_copy(update={"paragraphs": kept, "equations": equations})


def test_every_part_is_represented_with_its_lines() -> None:
    selection = select(_paper(), per_part=3, questions=4)
    kinds = {p.kind for p in selection.passages}
    assert kinds == {"method", "derivation", "experiment", "result"}
    assert all(p.lines for p in selection.passages)
    assert sum(selection.sections.values()) >= 10  # every sentence of every section read


def test_the_same_claim_twice_is_taken_once() -> None:
    methods = [p.text for p in select(_paper()).passages if p.kind == "method"]
    assert sum("sparse router that sends" in t for t in methods) == 1


def test_an_equation_comes_with_its_symbols_parsed_by_code() -> None:
    (derivation,) = [p for p in select(_paper()).passages if p.kind == "derivation"]
    assert "s = W x" in derivation.text and "where x is" in derivation.text
    assert list(derivation.symbols) == ["x: token embedding", "W: router weights",
                                        "k: number of experts"]


def test_experiment_aspects_and_results_and_question_sources() -> None:
    selection = select(_paper())
    aspects = {p.label: p for p in selection.passages if p.kind == "experiment"}
    assert {"datasets", "metrics"} <= set(aspects)
    assert "GLUE" in aspects["datasets"].lists["datasets"]
    assert {"accuracy", "f1"} <= set(aspects["metrics"].lists["metrics"])
    results = [p.text for p in selection.passages if p.kind == "result"]
    assert any("2.1 points" in t for t in results)
    texts = [p.text for p in selection.passages]
    assert len(texts) == len(set(texts))  # a sentence is one passage, of one kind
    assert any("limitation" in q.text for q in selection.questions)


def test_symbols_in_chinese_and_sentences_split_at_chinese_stops() -> None:
    assert parse_symbols("其中 x 表示输入，W 表示权重矩阵。") == ["x: 输入", "W: 权重矩阵"]
    assert split_sentences("本文提出一种方法。实验结果表明其有效！") == [
        "本文提出一种方法。", "实验结果表明其有效！"]
