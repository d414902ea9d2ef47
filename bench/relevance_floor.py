"""Where to put the relevance floor: best dense similarity of real questions vs off-topic ones.

    .venv/bin/python bench/relevance_floor.py [--cache /tmp/papermind-bench] [--iclr]
        [--questions bench/off_topic_questions.txt --questions bench/off_topic_science.txt]

Uses the indexes that bench/search_quality.py builds (run it first with the same --cache, so
most embeddings are cached). Off-topic: the questions in bench/off_topic_questions.txt
(everyday life) and bench/off_topic_science.txt (science outside these corpora: physics,
astronomy, chemistry, geology), 30 each, searched library-wide over each corpus. On-topic,
where the floor applies (library-wide): the PubMedQA questions over the 500 abstracts, the
QASPER lenient questions over the 8 QASPER papers (generic ones: "how many annotators"); with
``--iclr``, also the same QASPER questions over a library of the 8 QASPER papers and the 60
ICLR submissions of iclr_bench (8,221 chunks), and the 30 questions of
bench/iclr_questions.txt (one per ICLR paper, written from its title) over the ICLR papers. ``--iclr`` also adds the ICLR papers as a third,
larger corpus for the off-topic questions: an off-topic question's best cosine grows with
the library, since more chunks give it more chances of a near one.

Reports the best hit's cosine (dense mode) and, for fixed floors and for the embedder's
size-dependent default (``library.search.floor_at``), the share of off-topic questions
refused and of on-topic ones kept, and how many found in the top 5 (hybrid) are lost.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from search_quality import CACHE, DATA, SearchOptions, build, pubmedqa, qasper, rank_of, text_paper

from papermind.library.search import SearchIndex, floor_at

HERE = Path(__file__).resolve().parent
FLOORS = (0.80, 0.81, 0.82, 0.83, 0.84, 0.85, 0.86)
DEFAULT = "default"


def questions(path: Path) -> list[str]:
    return [q for q in path.read_text().splitlines() if q.strip()]


def iclr() -> list:
    """The ICLR submissions as papers, one paragraph per blank-line separated block."""
    papers = []
    for path in sorted((DATA / "iclr_bench" / "papers").glob("*.txt")):
        blocks = [" ".join(b.split()) for b in path.read_text(errors="replace").split("\n\n")]
        papers.append(text_paper(f"iclr-{path.stem}", [b for b in blocks if b]))
    return papers


def best(index: SearchIndex, query: str) -> float:
    hits = index.search(query, mode="dense", k=1)
    return hits[0].score if hits else 0.0


class Library:
    """One corpus: its index, its size and the default floor at that size."""

    def __init__(self, index: SearchIndex) -> None:
        self.default = floor_at(index.floor, index.vectors.count())
        index.options = dataclasses.replace(index.options, relevance_floor=0.0)  # raw scores
        self.index = index
        self.chunks = index.vectors.count()

    def floor(self, floor: float | str) -> float:
        return self.default if floor == DEFAULT else float(floor)


def found_text(scored: list[tuple[float, bool | None]]) -> str:
    if all(f is None for _, f in scored):
        return "no gold"
    return f"{sum(bool(f) for _, f in scored)} found in the top 5"


def on_topic(library: Library, items: list[tuple[str, Callable | None]],
             by_paper: bool = False) -> list[tuple[float, bool | None]]:
    """(best cosine, gold found in the hybrid top 5) per question (None: no gold);
    ``by_paper``: the gold is a paper (rank_of counts distinct papers), else a chunk."""
    scored: list[tuple[float, bool | None]] = []
    for question, gold in items:
        found = None
        if gold is not None:
            hits = library.index.search(question, mode="hybrid", k=10)
            found = (rank_of(hits, gold, by_paper) or 99) <= 5
        scored.append((best(library.index, question), found))
    return scored


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cache", default=str(CACHE))
    parser.add_argument("--embedder", default="e5")
    parser.add_argument("--questions", action="append", type=Path,
                        help="off-topic questions, one per line (repeatable; default: "
                             "off_topic_questions.txt and off_topic_science.txt)")
    parser.add_argument("--iclr", action="store_true",
                        help="add the ICLR corpus and the large-library on-topic sets")
    args = parser.parse_args()
    args.chunk_tokens, args.no_enhance, args.no_priors = SearchOptions().chunk_tokens, False, True
    args.bm25_weight, args.dense_weight, args.rrf_k = 1.0, 1.0, SearchOptions().rrf_k
    args.priors, args.fusion, args.storage = False, SearchOptions().fusion, None
    papers, _ = qasper()
    pm_papers, sets = pubmedqa()
    corpora = {"qasper": Library(build("qasper", papers, args)),
               "pubmedqa": Library(build("pubmedqa", pm_papers, args))}
    on: dict[str, tuple[Library, list[tuple[float, bool | None]]]] = {
        "PubMedQA questions": (corpora["pubmedqa"], on_topic(
            corpora["pubmedqa"], [(q, lambda _t, p, g=pid: p == g) for q, pid in sets["question"]], by_paper=True))}
    _, lenient = qasper("lenient")
    on["QASPER lenient, QASPER library"] = (corpora["qasper"], on_topic(
        corpora["qasper"], [(q, gold) for q, _pid, gold in lenient]))
    if args.iclr:
        iclr_papers = iclr()
        corpora["iclr"] = Library(build("iclr", iclr_papers, args))
        mixed = Library(build("qasper_iclr", papers + iclr_papers, args))
        on["QASPER lenient, QASPER+ICLR library"] = (mixed, on_topic(
            mixed, [(q, gold) for q, _pid, gold in lenient]))
        on["ICLR title questions"] = (corpora["iclr"], on_topic(
            corpora["iclr"], [(q, None) for q in questions(HERE / "iclr_questions.txt")]))
    lists = {path.stem: questions(path) for path in
             (args.questions or [HERE / "off_topic_questions.txt", HERE / "off_topic_science.txt"])}
    off = {(name, corpus): (library, [best(library.index, q) for q in qs])
           for name, qs in lists.items() for corpus, library in corpora.items()}

    for corpus, library in corpora.items():
        print(f"{corpus}: {library.chunks} chunks, default floor {library.default:.3f}")
    for (name, corpus), (_, scores) in off.items():
        print(f"off-topic {name} over {corpus}: best cosine median "
              f"{statistics.median(scores):.3f}, max {max(scores):.3f} ({len(scores)} questions)")
    for name, (_, scored) in on.items():
        print(f"on-topic {name}: best cosine median {statistics.median(s for s, _ in scored):.3f},"
              f" min {min(s for s, _ in scored):.3f} ({len(scored)} questions,"
              f" {found_text(scored)})")
    print()
    print("| floor | " + " | ".join(f"{n} / {c}: refused" for n, c in off)
          + " | " + " | ".join(f"{n}: kept (found lost)" for n in on) + " |")
    print("|---|" + "---|" * (len(off) + len(on)))
    for floor in (*FLOORS, DEFAULT):
        cells = []
        for library, scores in off.values():
            cells.append(f"{sum(s < library.floor(floor) for s in scores) / len(scores):.2f}")
        for library, scored in on.values():
            at = library.floor(floor)
            kept = sum(s >= at for s, _ in scored) / len(scored)
            lost = "-" if all(f is None for _, f in scored) else \
                sum(bool(f) and s < at for s, f in scored)
            cells.append(f"{kept:.2f} ({lost})")
        label = "size-dependent default" if floor == DEFAULT else f"{floor:.2f}"
        print(f"| {label} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
