"""Rebuild the QA regression set evals/qa_questions.jsonl from the shared dev data.

    .venv/bin/python evals/build_qa_questions.py [--data ../shared/data] [--pubmedqa 160]

Keeps the hand-written questions (those without an ``origin.dataset``), then adds
- every QASPER question whose gold answer is short (at most five words, not yes/no) and
  occurs in its paper: the fact is that answer, the source its paper ``qasper_NN``;
- the first ``--pubmedqa`` (200) PubMedQA PQA-L questions by PMID: the fact is the gold label
  (yes / no / maybe), the source the abstract ``pubmedqa_<PMID>``.
Each added line carries ``origin`` (dataset file, record, question index) to trace it back.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from papermind.evaluation.metrics import normalize_answer
from papermind.evaluation.qa_sets import PUBMEDQA, QASPER, pubmedqa_set, qasper_docs
from papermind.evaluation.runs.jobs import shared_data

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "evals" / "qa_questions.jsonl"
MAX_WORDS = 5


def qasper_lines(data: Path) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for i, record in enumerate(qasper_docs(data)):
        text = normalize_answer(record["input"])
        for j, (question, answer) in enumerate(zip(record["instructions"], record["outputs"],
                                                   strict=False)):
            gold = " ".join(answer.split())
            words = normalize_answer(gold).split()
            if not words or len(words) > MAX_WORDS or gold.lower() in ("yes", "no") or \
                    " ".join(words) not in text:
                continue
            out.append({"id": f"qasper-{i:02d}-{j:02d}", "question": question, "facts": [gold],
                        "sources": [f"qasper_{i:02d}"], "papers": [f"qasper_{i:02d}"],
                        "origin": {"dataset": str(QASPER), "record": i, "question": j}})
    return out


def pubmedqa_lines(data: Path, count: int) -> list[dict[str, object]]:
    return [{"id": item.id, "question": item.question, "facts": [item.label],
             "sources": [item.doc.removesuffix(".txt")], "papers": [item.doc.removesuffix(".txt")],
             "origin": {"dataset": str(PUBMEDQA), "record": item.origin["record"]}}
            for item in pubmedqa_set(data).items[:count]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--pubmedqa", type=int, default=200)
    args = parser.parse_args()
    data = args.data or shared_data()
    kept = [json.loads(line) for line in OUT.read_text(encoding="utf-8").splitlines()
            if line.strip() and not json.loads(line).get("origin", {}).get("dataset")]
    lines = [*kept, *qasper_lines(data), *pubmedqa_lines(data, args.pubmedqa)]
    OUT.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines),
                   encoding="utf-8")
    print(f"{OUT}: {len(kept)} hand-written + {len(lines) - len(kept)} built = {len(lines)}")


if __name__ == "__main__":
    main()
