"""The search dev set's data (evals/search_devset.jsonl): its papers, parsed once and kept in
a cache folder, and the gold test of a hit.

A hit holds the evidence: one snippet, folded (NFKC, lower case, letters and digits only),
occurs in the folded chunk, or 60% of it does as one stretch (a paragraph the chunker split).
"""

from __future__ import annotations

import difflib
import functools
import json
import os
import pickle
import re
import sys
import unicodedata
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from papermind.domain import Paper  # noqa: E402
from papermind.ingest import parse_file  # noqa: E402

DATA = Path(os.environ.get("PAPERMIND_SHARED_DATA", ROOT.parent / "shared" / "data"))
DEVSET = ROOT / "evals" / "search_devset.jsonl"
PARSED = Path(os.environ.get("PAPERMIND_BENCH_CACHE", "/tmp/papermind-bench")) / "devset-papers"
_FOLD = re.compile(r"[^\w]|_")


def fold(text: str) -> str:
    return _FOLD.sub("", unicodedata.normalize("NFKC", text).lower())


def holds(evidence: Sequence[str], text: str) -> bool:
    """Whether ``text`` holds one of the ``evidence`` snippets (or 60% of one, in one run)."""
    body = fold(text)
    for snippet in evidence:
        folded = fold(snippet)
        if folded in body:
            return True
        match = difflib.SequenceMatcher(None, folded, body, autojunk=False).find_longest_match()
        if match.size >= 0.6 * len(folded):
            return True
    return False


def load_devset(path: Path = DEVSET) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


@functools.cache
def load_paper(name: str) -> Paper:
    """The Paper of ``name`` (``qasper-N`` or a path under the shared data), parsed once."""
    PARSED.mkdir(parents=True, exist_ok=True)
    cached = PARSED / (fold(name) + ".pickle")
    if cached.exists():
        return pickle.loads(cached.read_bytes())
    if name.startswith("qasper-"):
        from search_quality import text_paper

        number = int(name.removeprefix("qasper-"))
        lines = (DATA / "qasper_subset" / "scientific_qa_dev.jsonl").read_text().splitlines()
        paper = text_paper(name, json.loads(lines[number])["input"].split("\n"))
    else:
        paper = parse_file(DATA / name)
    cached.write_bytes(pickle.dumps(paper))
    return paper
