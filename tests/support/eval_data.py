"""A tiny shared-data folder in the layouts the eval harness reads (QASPER subset, PubMedQA,
ICLR bench), so harness tests need neither ../shared/data nor a real model."""

from __future__ import annotations

import json
from pathlib import Path

OLID = """Introduction
Offensive content is common on social media. We build the OLID dataset of tweets.
Data
The OLID dataset contains 14,100 tweets annotated by five annotators.
Models
We train a linear SVM, a BiLSTM and a CNN; the CNN performs best with 0.80 macro F1.
Conclusion
OLID supports three levels of annotation.
"""
EBOOK = """Introduction
We study tag recommendation for e-books.
Data
The vocabulary holds 33,663 distinct review keywords collected from Amazon.
Method
A hybrid of popularity and similarity approaches performs best.
"""
PAPER = """# A Study of Widgets

Ann Author

ABSTRACT

We propose widget networks and show they help on the benchmark.

## 1 INTRODUCTION

Widgets are useful. Prior work studied gadgets (Smith et al., 2019).
Our widget network outperforms the baseline on accuracy as Table 1 shows.

## 2 EXPERIMENTS

Table 1: Accuracy on the benchmark.

|Method|Accuracy|
|---|---|
|Baseline|71.2|
|Widget|78.4|

The widget network reaches 78.4 accuracy, against 71.2 for the baseline.

## 3 DISCUSSION

The gains in Table 1 hold on every split we tried, and we describe them further below.

Future work will study larger widget networks on more benchmarks and in more domains.

Training is stable and converges within a few hours on one machine for every setting.

We release the code and the trained widget networks so that others can build on them.

We also report in Table 1 that both models were trained with the same budget and data.

## REFERENCES

John Smith and Mary Lee. Gadgets revisited. In ICML, 2019.
"""


def write_shared_data(root: Path) -> Path:
    """Write the three data sets under ``root`` and return it."""
    qasper = root / "qasper_subset"
    qasper.mkdir(parents=True)
    records = [
        {"input": OLID, "instructions": ["How many tweets does OLID contain?",
                                          "Which model performs best?"],
         "outputs": ["14,100 tweets", "CNN"]},
        {"input": EBOOK, "instructions": ["How large is the vocabulary?"],
         "outputs": ["33,663"]},
    ]
    (qasper / "scientific_qa_dev.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    pubmed = root / "pubmedqa"
    pubmed.mkdir()
    (pubmed / "pqal_dev.json").write_text(json.dumps({
        "111": {"QUESTION": "Does drug A lower blood pressure?", "LABELS": ["RESULTS"],
                "CONTEXTS": ["Drug A lowered systolic blood pressure by 12 mmHg in 200 adults."],
                "LONG_ANSWER": "Drug A lowers blood pressure.", "final_decision": "yes"},
        "222": {"QUESTION": "Does coffee cause ulcers?", "LABELS": ["RESULTS"],
                "CONTEXTS": ["Ulcer rates did not differ between coffee drinkers and others."],
                "LONG_ANSWER": "No association was found.", "final_decision": "no"},
    }), encoding="utf-8")
    bench = root / "iclr_bench"
    (bench / "papers").mkdir(parents=True)
    (bench / "ratings_dev.tsv").write_text(
        "paper_id\t0\t1\t2\tdecision\nw1\t6.0\t8.0\t\tAccept (Poster)\nw2\t3.0\t5.0\t3.0\tReject\n",
        encoding="utf-8")
    for name in ("w1", "w2"):
        (bench / "papers" / f"{name}.txt").write_text(PAPER.replace("Widgets", name.upper()),
                                                       encoding="utf-8")
    return root


def write_questions(path: Path) -> Path:
    """A two-question regression set on the QASPER documents."""
    path.write_text(
        '{"id": "olid-size", "question": "How many tweets does OLID contain?", '
        '"facts": ["14,100"], "sources": ["qasper_00"], "origin": {"record": 0}}\n'
        '{"id": "ebook-vocab", "question": "How large is the vocabulary?", '
        '"facts": ["33,663"], "sources": ["qasper_01"]}\n', encoding="utf-8")
    return path
