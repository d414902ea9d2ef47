"""QA regression run over the QASPER papers: accuracy and source recall (opt-in, not in CI).

    .venv/bin/python evals/run_qa_eval.py [--deep] [--questions evals/qa_questions.jsonl]
        [--home DIR] [--limit N]

Builds a library from ../shared/data/qasper_subset (papers saved as qasper_NN.txt) in --home
(default: a temporary folder), then asks every question with the model the settings
configure (PAPERMIND_LLM__... environment variables; the bundled local model otherwise).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from papermind.config import load_settings
from papermind.services.container import Container
from papermind.services.qa import qa_parts
from papermind.services.regression import PaperName, QuestionScore, load_questions, run_regression

ROOT = Path(__file__).resolve().parents[1]
QASPER = ROOT.parent / "shared" / "data" / "qasper_subset" / "scientific_qa_dev.jsonl"


def build_library(box: Container, folder: Path) -> list[PaperName]:
    """Write each QASPER paper as qasper_NN.txt and add them all to the library."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for index, line in enumerate(QASPER.read_text(encoding="utf-8").splitlines()):
        path = folder / f"qasper_{index:02d}.txt"
        path.write_text(json.loads(line)["input"], encoding="utf-8")
        paths.append(path)
    results = box.library.add(paths)
    failed = [r for r in results if r.status == "failed"]
    if failed:
        sys.exit(f"could not add {failed[0].path}: {failed[0].reason}")
    return [PaperName(r.paper_id or "", Path(r.path).name, r.title) for r in results]


def show(score: QuestionScore) -> None:
    print(f"{score.id:20s} acc {score.accuracy:.2f} verified acc {score.verified_accuracy:.2f} "
          f"recall {score.source_recall:.2f} "
          f"{score.status:22s} {score.tokens:6d} tok  {score.answer[:100]!r}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, default=ROOT / "evals" / "qa_questions.jsonl")
    parser.add_argument("--deep", action="store_true", help="deep QA for every question")
    parser.add_argument("--home", type=Path, default=None, help="library folder to use")
    parser.add_argument("--limit", type=int, default=None, help="first N questions only")
    args = parser.parse_args()
    if not QASPER.is_file():
        sys.exit(f"shared data not found at {QASPER}")
    questions = load_questions(args.questions)[:args.limit]
    home = args.home or Path(tempfile.mkdtemp(prefix="papermind-qa-eval-"))
    with Container(load_settings(home)) as box:
        names = build_library(box, home / "qasper")
        started = time.perf_counter()
        result = asyncio.run(run_regression(qa_parts(box), questions, names, deep=args.deep,
                                            on_score=show))
    seconds = time.perf_counter() - started
    print(f"\n{len(result.scores)} questions, deep={args.deep}: accuracy {result.accuracy:.3f} "
          f"(verified {result.verified_accuracy:.3f}), "
          f"source recall {result.source_recall:.3f}, {seconds:.0f} s")
    out = ROOT / "evals" / "results"
    out.mkdir(exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    payload = {"command": " ".join(["evals/run_qa_eval.py", *sys.argv[1:]]),
               "seconds": round(seconds, 1), **result.to_dict()}
    (out / f"qa_{stamp}.json").write_text(json.dumps(payload, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
