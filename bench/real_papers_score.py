"""Scoring of the labelled real-paper bench (bench/real_papers.py): titles, authors and
reference counts against gold read from the papers, and findings against labels read from
the papers. Pure functions on plain data, so the rules are unit-tested without the papers.

Gold (bench/real_papers_gold.jsonl, one input a line): ``input`` (path under the shared
data), ``title``, ``authors`` (names as printed, without affiliation markers; ``"A|B"``
accepts either spelling; ``[]`` an anonymous paper; null: not scored), ``references`` (the
number of reference-list items; null: not scored), ``layout``, ``anonymous`` (also checked
with --anonymous).

Labels (bench/real_papers_labels.jsonl): ``input``, ``kind``, ``where``, ``digest`` (see
``digest``), ``label`` (true / false / useless) and ``why``. A finding keeps its label
while its input, kind and quoted text stay the same, even when its line moves.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

LABELS = ("true", "false", "useless")
"""true: the paper has that problem; false: it does not; useless: technically so, but no
author would change anything."""
REF_TOLERANCE = 0.05
"""A reference count is right within 5 % of the gold count."""
MARKERS = re.compile(r"[\d♠♢♡♣♤♥♦∗*†‡§¶˚◦⋆★☆#@:]")
"""Affiliation and footnote markers (and Markdown heading marks): none belongs in a name."""
HEADINGS = {"abstract", "introduction", "keywords", "indexterms", "references", "contents",
            "摘要", "关键词"}
"""Words that are a heading, never an author."""


def fold(text: str) -> str:
    """Case, accents, spacing and punctuation folded away: only letters and digits remain
    (CJK included), so 'V -Usable' equals 'V-Usable' and 'Andr´ es' equals 'Andrés'."""
    decomposed = unicodedata.normalize("NFKD", text).casefold()
    return "".join(ch for ch in decomposed if ch.isalnum() and not unicodedata.combining(ch))


def title_right(parsed: str, gold: str) -> bool:
    """The exact title, up to case and punctuation."""
    return bool(fold(gold)) and fold(parsed) == fold(gold)


def bad_author(name: str) -> bool:
    """An 'author' that carries a marker or is a heading: the parser took the wrong text."""
    return bool(MARKERS.search(name)) or fold(name) in HEADINGS or not fold(name)


@dataclass(frozen=True)
class AuthorScore:
    """Parsed authors against gold: matched names, missed gold names, extra parsed names,
    and parsed names that are plainly not names (markers, headings)."""

    gold: int
    parsed: int
    matched: int
    bad: int

    @property
    def exact(self) -> bool:
        return self.matched == self.gold == self.parsed and self.bad == 0


def score_authors(parsed: Iterable[str], gold: Iterable[str]) -> AuthorScore:
    """Set match on folded names; a gold ``"A|B"`` matches either spelling."""
    names = list(parsed)
    wanted = [{fold(alt) for alt in name.split("|")} for name in gold]
    left = Counter(fold(n) for n in names)
    matched = 0
    for alternatives in wanted:
        hit = next((a for a in alternatives if left[a] > 0), None)
        if hit is not None:
            left[hit] -= 1
            matched += 1
    return AuthorScore(len(wanted), len(names), matched, sum(bad_author(n) for n in names))


def references_right(parsed: int, gold: int) -> bool:
    """The parsed reference count within ``REF_TOLERANCE`` of the gold count."""
    return abs(parsed - gold) <= REF_TOLERANCE * gold


def digest(text: str, message: str) -> str:
    """A short hash of what a finding quotes (its message when it quotes nothing), folded,
    so a label survives re-runs that move lines or re-space text."""
    basis = fold(text) or fold(message)
    return hashlib.sha1(basis.encode("utf-8")).hexdigest()[:12]


def label_key(item: Mapping[str, Any]) -> tuple[str, str, str, str]:
    return item["input"], item["kind"], item["where"], item["digest"]


def match_labels(findings: Iterable[Mapping[str, Any]],
                 labels: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any] | None]:
    """The label record of each finding: same input, kind, place and digest; else the same
    input, kind and digest anywhere (its line moved) when all such labels agree; else None."""
    known = list(labels)
    bad = [lab for lab in known if lab.get("label") not in LABELS]
    if bad:
        raise ValueError(f"unknown label {bad[0].get('label')!r} for {label_key(bad[0])}; "
                         f"labels are {', '.join(LABELS)}")
    exact = {label_key(lab): lab for lab in known}
    loose: dict[tuple[str, str, str], list[Mapping[str, Any]]] = {}
    for lab in known:
        loose.setdefault((lab["input"], lab["kind"], lab["digest"]), []).append(lab)
    out: list[Mapping[str, Any] | None] = []
    for f in findings:
        found = exact.get(label_key(f))
        if found is None:
            moved = loose.get((f["input"], f["kind"], f["digest"]), [])
            found = moved[0] if moved and len({m["label"] for m in moved}) == 1 else None
        out.append(found)
    return out


def form_of(name: str) -> str:
    """'latex' (a project folder), 'md' or 'pdf': the input form, from its path."""
    return "latex" if name.endswith("/latex") else name.rsplit(".", 1)[-1]


def precision_table(findings: Iterable[Mapping[str, Any]],
                    by_form: bool = False) -> dict[str, dict[str, Any]]:
    """'kind/severity' (with '/form' when ``by_form``; and 'all/severity') -> counts of each
    label, unlabelled, and precision = true / (true + false + useless) over the labelled."""
    table: dict[str, Counter[str]] = {}
    for f in findings:
        key = f"{f['kind']}/{f['severity']}" + (f"/{form_of(f['input'])}" if by_form else "")
        for name in (key, f"all/{f['severity']}"):
            table.setdefault(name, Counter())[f.get("label") or "unlabelled"] += 1
    out: dict[str, dict[str, Any]] = {}
    for key in sorted(table, key=lambda k: (k.startswith("all/"), k)):
        counts = table[key]
        labelled = sum(counts[lab] for lab in LABELS)
        out[key] = {**{lab: counts[lab] for lab in (*LABELS, "unlabelled")},
                    "precision": round(counts["true"] / labelled, 3) if labelled else None}
    return out
