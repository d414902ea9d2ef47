"""Build evals/search_devset.jsonl: within-paper questions with their gold evidence, split
per paper into a set to choose with and a set to report on.

    PAPERMIND_SHARED_DATA=/work/shared/data PYTHONPATH=src .venv/bin/python evals/build_search_devset.py

Sources (papers under ../shared/data; nothing of them is copied here but the questions and
short evidence snippets):
- ``qasper``: every question of qasper_subset whose answer ties to one paragraph: the answer
  verbatim in exactly one paragraph (evidence = the answer), else one paragraph holding >= 60%
  of the answer's words, 0.15 ahead of the next (evidence = its sentence with the most of
  them). QASPER is CC-BY-4.0.
- ``iclr`` and ``latex``: evals/search_questions_written.jsonl, questions written for this set
  on paragraphs drawn at random (seeded by the file name) from 12 ICLR 2022 submissions of
  iclr_bench (the first 12 by SHA-256 of the file name) and the 7 LaTeX-backed papers, with a
  verbatim snippet of the gold paragraph; paragraphs that are code, tables without words or
  garbled formulas were skipped (evals/draw_search_paragraphs.py prints them). Apache-2.0
  (AI-Scientist).
- ``zh``: bench/zh_retrieval.jsonl (the five Chinese papers).

A row: id, source, paper (path under the shared data, or ``qasper-N``), question, evidence
(snippets; a hit is a chunk holding one, see ``holds``), split (``choose`` or ``report``,
per paper, so that a paper's questions never straddle: ``splits``).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from search_devset_data import holds, load_paper  # noqa: E402

DATA = Path(os.environ.get("PAPERMIND_SHARED_DATA", ROOT.parent / "shared" / "data"))
OUT = ROOT / "evals" / "search_devset.jsonl"
WRITTEN = ROOT / "evals" / "search_questions_written.jsonl"
ZH = ROOT / "bench" / "zh_retrieval.jsonl"
_TOKENS = re.compile(r"[a-z0-9]+")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def splits(rows: list[dict]) -> dict[str, str]:
    """Each paper's split: within a source, papers ordered by SHA-256 of their name go to
    ``choose`` and ``report`` in turn (balanced per source; fixed while the papers are)."""
    chosen: dict[str, str] = {}
    for source in sorted({r["source"] for r in rows}):
        papers = sorted({r["paper"] for r in rows if r["source"] == source},
                        key=lambda p: hashlib.sha256(p.encode()).hexdigest())
        chosen.update({p: ("choose", "report")[i % 2] for i, p in enumerate(papers)})
    return chosen


def qasper_rows() -> Iterator[dict]:
    path = DATA / "qasper_subset" / "scientific_qa_dev.jsonl"
    for number, raw in enumerate(path.read_text().splitlines()):
        record = json.loads(raw)
        paragraphs = [p.strip() for p in record["input"].split("\n") if p.strip()]
        for question, answer in zip(record["instructions"], record["outputs"], strict=True):
            evidence = qasper_evidence(answer, paragraphs)
            if evidence:
                yield {"source": "qasper", "paper": f"qasper-{number}", "question": question,
                       "evidence": [evidence]}


def qasper_evidence(answer: str, paragraphs: list[str]) -> str | None:
    """The answer when it is verbatim in exactly one paragraph, else the best sentence of
    the one paragraph that holds most of the answer's words (None when none ties)."""
    low = [re.sub(r"\s+", " ", p).lower() for p in paragraphs]
    gold = re.sub(r"\s+", " ", answer).strip().lower()
    if len(gold) >= 3 and sum(gold in p for p in low) == 1:
        return answer.strip()
    words = set(_TOKENS.findall(gold))
    if len(words) < 2:
        return None
    shares = sorted(((share(words, p), i) for i, p in enumerate(low)), reverse=True)
    best, second = shares[0][0], shares[1][0] if len(shares) > 1 else 0.0
    if best < 0.6 or best - second < 0.15:
        return None
    sentences = _SENTENCE.split(paragraphs[shares[0][1]])
    return max(sentences, key=lambda s: share(words, s.lower()))


def share(words: set[str], text: str) -> float:
    return len(words & set(_TOKENS.findall(text))) / len(words)


def other_rows() -> Iterator[dict]:
    for line in WRITTEN.read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        yield {**item, "evidence": [item["evidence"]]}
    for line in ZH.read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        yield {"source": "zh", "paper": f"pdfs/zh/{item['paper']}.pdf",
               "question": item["question"], "evidence": [item["answer"]]}


def main() -> int:
    if not (DATA / "qasper_subset").is_dir():
        print(f"shared data not found at {DATA}")
        return 1

    rows, missing = [], []
    for row in [*qasper_rows(), *other_rows()]:
        paper = load_paper(row["paper"])
        if not any(holds(row["evidence"], p.text) for p in paper.paragraphs):
            missing.append(row)
            continue
        row["id"] = hashlib.sha256((row["paper"] + row["question"]).encode()).hexdigest()[:12]
        rows.append(row)
    split = splits(rows)
    for row in rows:
        row["split"] = split[row["paper"]]
    keys = ("id", "source", "paper", "question", "evidence", "split")
    OUT.write_text("".join(json.dumps({k: r[k] for k in keys}, ensure_ascii=False) + "\n"
                           for r in rows), encoding="utf-8")
    for source in sorted({r["source"] for r in rows}):
        for split in ("choose", "report"):
            chosen = [r for r in rows if r["source"] == source and r["split"] == split]
            print(f"{source:7} {split:7} {len(chosen):4} questions, "
                  f"{len({r['paper'] for r in chosen})} papers")
    print(f"{len(rows)} questions written to {OUT}; evidence not found: {len(missing)}")
    for row in missing:
        print("  missing:", row["paper"], row["question"], row["evidence"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
