"""The eval report's labels in the report language: headings, columns, metric names, plot
labels; English by default and for messages a catalogue lacks."""

from __future__ import annotations

from typing import Any

import pytest

from papermind.evaluation.report import render

RUN: dict[str, Any] = {
    "id": "r1", "kind": "qa", "settings": {"demo_quality": True},
    "summary": {"metrics": {"evidence_recall": {"value": 0.5, "low": 0.2, "high": 0.8, "n": 4},
                            "answered": {"value": 1.0, "low": 1.0, "high": 1.0, "n": 4}}}}
RESULTS = [{"id": "q1", "scores": {"answered": 1.0, "evidence_recall": 0.5}}]


def test_english_is_the_default() -> None:
    page = render(RUN, RESULTS)
    assert "<html lang='en'>" in page and "qa evaluation r1" in page
    assert "<th>metric</th><th>ours</th><th>95% interval</th>" in page
    assert "evidence recall" in page and "demo quality: the bundled local model" in page


def test_chinese_labels() -> None:
    page = render(RUN, RESULTS, lang="zh")
    assert "<html lang='zh'>" in page and "问答评测 r1" in page
    assert "<th>指标</th><th>本系统</th><th>95% 区间</th>" in page
    assert "证据召回率" in page and "演示质量：内置本地模型" in page
    assert "<h2>逐项结果</h2>" in page and "<h2>设置</h2>" in page
    assert "evaluation r1" not in page and "<th>metric</th>" not in page


def test_a_language_without_a_catalogue_falls_back_to_english() -> None:
    assert "<th>metric</th>" in render(RUN, RESULTS, lang="fr")


def test_plot_labels_and_captions_are_translated() -> None:
    pytest.importorskip("matplotlib")
    review = {"id": "r2", "kind": "review", "settings": {}, "summary": {"metrics": {}, "roles": {}}}
    rows = [{"paper": "p1", "accepted": True, "human_mean": 6.5, "panel_score": 7.0, "scores": {}},
            {"paper": "p2", "accepted": False, "human_mean": 3.0, "panel_score": 4.0, "scores": {}}]
    page = render(review, rows, lang="zh")
    assert "人工平均评分" in page and "评审组分数（1-10）" in page  # axis labels kept as SVG text
    assert "<figcaption>评审组分数与人工平均评分</figcaption>" in page
    assert "mean human rating" not in page
