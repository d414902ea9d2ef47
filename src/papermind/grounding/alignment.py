"""Fuzzy alignment of a quote's words against the paper's tokens, and what differs.

Candidate windows come from rare quote words voting for a start position; each window is
aligned word by word (rapidfuzz, C++), the best local run of matched words is the span,
and every difference inside it is classified: *cosmetic* (spelling variants, split or
joined words, a left-out citation marker, whole lines of a float or footnote interrupting
the text) or a *problem* (a changed number or word, words added or left out). Only a span
without problems can be verified.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from rapidfuzz import fuzz
from rapidfuzz.distance import Indel, Levenshtein

from papermind.domain import MatchMethod
from papermind.grounding.index import FlowIndex

CITATION = re.compile(
    r"^(?:\((?=[^()]*(?:19|20)\d{2})[^()]{2,160}\)|\[\s*\d{1,3}(?:\s*[-\u2013,;]\s*\d{1,3})*\s*\])[,.;:]?$")
"""An in-text citation marker: leaving one out of a quote changes nothing it says."""
_FLOAT_START = re.compile(r"^\s*(?:(?:Figure|Fig\.|Table|Algorithm|Listing)\s*\d|\d{1,2}\s|[*\u2020\u2021\u00a7])")
MAX_SKIPPED = 80
"""Most words of interrupting lines (a caption, a footnote) a quote may run across."""
BUCKET = 8
MAX_CANDIDATES = 4
MIN_WORDS = 4


@dataclass
class Match:
    """A located span (token indices, inclusive) with its score and differences."""

    first: int
    last: int
    method: MatchMethod
    score: float
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def fuzzy_match(index: FlowIndex, words: list[str], keys: list[str], after: int = 0,
                before: int | None = None) -> Match | None:
    """Best fuzzy span for a quote given as raw ``words`` and their ``keys``, within tokens
    ``after``..``before``."""
    if len(keys) < MIN_WORDS:
        return None
    end = len(index.keys) if before is None else before
    best: Match | None = None
    for start in _candidates(index, keys, after, end):
        lo = max(after, start - BUCKET - 10)
        hi = min(end, start + BUCKET + len(keys) + max(len(keys), 60))
        span = _best_segment(index, keys, lo, hi)
        if span is None:
            continue
        match = _assess(index, words, keys, *span)
        if best is None or match.score > best.score:
            best = match
    return best


def _candidates(index: FlowIndex, keys: list[str], after: int, end: int) -> list[int]:
    """Start positions voted for by the quote's rarer words, best first."""
    limit = max(50, len(index.keys) // 100)
    votes: Counter[int] = Counter()
    for i, key in enumerate(keys):
        positions = index.postings.get(key)
        if not positions or len(positions) > limit:
            continue
        for bucket in {(p - i) // BUCKET for p in positions if after <= p < end}:
            votes[bucket] += 1
    floor = 2 if len(keys) >= 6 else 1
    return [b * BUCKET for b, n in votes.most_common(MAX_CANDIDATES) if n >= floor]


def _best_segment(index: FlowIndex, keys: list[str], lo: int, hi: int) -> tuple[int, int] | None:
    """The densest run of aligned words in tokens ``lo..hi`` (absolute, inclusive)."""
    region = index.keys[lo:hi]
    pairs: list[tuple[int, int]] = []
    for op in Indel.opcodes(keys, region):
        if op.tag == "equal":
            pairs.extend((op.src_start + k, lo + op.dest_start + k)
                         for k in range(op.src_end - op.src_start))
    if len(pairs) * 2 < len(keys):
        return None
    best = (0.0, 0, 0)
    score, seg_start = 0.0, 0
    for k, (qi, ti) in enumerate(pairs):
        if k:
            gap_q, gap_t = qi - pairs[k - 1][0] - 1, ti - pairs[k - 1][1] - 1
            if gap_t and not gap_q and _interruption(index, ti - gap_t, ti - 1):
                gap_t = 0
            score += 1.0 - 0.5 * (gap_q + gap_t)
        if k == 0 or score < 1.0:
            score, seg_start = 1.0, k
        if score > best[0] or (score == best[0] and seg_start == best[1]):
            best = (score, seg_start, k)
    _, a, b = best
    if (b - a + 1) * 2 < len(keys):
        return None
    (q0, t0), (q1, t1) = pairs[a], pairs[b]
    while q0 > 0 and t0 > lo and keys[q0 - 1] == index.keys[t0 - 1]:  # LCS may have put an
        q0, t0 = q0 - 1, t0 - 1  # edge word ('In', 'the') elsewhere: take the adjacent one
    while q1 < len(keys) - 1 and t1 < hi - 1 and keys[q1 + 1] == index.keys[t1 + 1]:
        q1, t1 = q1 + 1, t1 + 1
    return t0, t1


def _assess(index: FlowIndex, words: list[str], keys: list[str], first: int, last: int) -> Match:
    span = index.keys[first:last + 1]
    problems: list[str] = []
    notes: list[str] = []
    skipped: set[int] = set()
    for qa, qb, ta, tb in _diff_blocks(keys, span):
        quote_part, paper_part = keys[qa:qb], span[ta:tb]
        if "".join(quote_part) == "".join(paper_part):
            continue
        if not quote_part and CITATION.match(index.span_text(first + ta, first + tb - 1)):
            notes.append("leaves out the citation "
                         f"'{index.span_text(first + ta, first + tb - 1)}'")
            skipped.update(range(ta, tb))
            continue
        if not quote_part and _interruption(index, first + ta, first + tb - 1):
            skipped.update(range(ta, tb))
            notes.append(f"skips {tb - ta} words on lines that interrupt the text: "
                         f"'{_short(index.span_text(first + ta, first + tb - 1))}'")
            continue
        if len(quote_part) == len(paper_part) and all(map(spelling_variant, quote_part, paper_part)):
            notes.append(f"spelling differs: '{' '.join(words[qa:qb])}' vs "
                         f"'{index.span_text(first + ta, first + tb - 1)}'")
            continue
        paper_text = index.span_text(first + ta, first + tb - 1) if tb > ta else ""
        problems.append(_describe(" ".join(words[qa:qb]), paper_text))
    kept = [k for i, k in enumerate(span) if i not in skipped]
    score = fuzz.ratio(" ".join(keys), " ".join(kept)) / 100.0
    return Match(first, last, "fuzzy", round(score, 4), problems, notes)


def _diff_blocks(keys: list[str], span: list[str]) -> list[tuple[int, int, int, int]]:
    """Runs of consecutive non-equal edit operations as (quote a, b, paper a, b)."""
    blocks: list[tuple[int, int, int, int]] = []
    current: list[int] | None = None
    for op in Levenshtein.opcodes(keys, span):
        if op.tag == "equal":
            if current:
                blocks.append((current[0], current[1], current[2], current[3]))
            current = None
        elif current is None:
            current = [op.src_start, op.src_end, op.dest_start, op.dest_end]
        else:
            current[1], current[3] = op.src_end, op.dest_end
    if current:
        blocks.append((current[0], current[1], current[2], current[3]))
    return blocks


def spelling_variant(a: str, b: str) -> bool:
    """'modelling'/'modeling', 'colour'/'color': same start, no digits, very similar.

    Not 'model'/'models' or 'improve'/'improved' (one extends the other: a different form).
    """
    if a == b:
        return True
    if min(len(a), len(b)) < 4 or a[0] != b[0] or a.startswith(b) or b.startswith(a):
        return False
    if any(c.isdigit() for c in a + b):
        return False
    return Indel.normalized_similarity(a, b) >= 0.8


def _interruption(index: FlowIndex, a: int, b: int) -> bool:
    """True when tokens ``a..b`` are whole lines that interrupt the text around them: a
    caption or footnote, smaller type, or lines at a page or column break."""
    if not (0 < a <= b < len(index.tokens) - 1 and b - a < MAX_SKIPPED
            and index.starts_line(a) and index.ends_line(b)):
        return False
    gap = index.lines[index.tokens[a].first_line:index.tokens[b].last_line + 1]
    before = index.lines[index.tokens[a - 1].last_line]
    after = index.lines[index.tokens[b + 1].first_line]
    if _FLOAT_START.match(gap[0].text) or before.page != after.page:
        return True
    sizes = [ln.font_size for ln in (before, after, *gap)]
    if all(size is not None for size in sizes):
        body = min(s for s in sizes[:2] if s is not None)
        if all(s is not None and s < body - 0.5 for s in sizes[2:]):
            return True
    return (before.box is not None and after.box is not None
            and abs(after.box.x0 - before.box.x0) > 100 and after.box.y0 < before.box.y0 - 20)


def _describe(quote_part: str, paper_part: str) -> str:
    if any(c.isdigit() for c in quote_part + paper_part):
        return f"number differs: quote '{_short(quote_part)}' vs paper '{_short(paper_part)}'"
    if not paper_part:
        return f"quote has words the paper does not: '{_short(quote_part)}'"
    if not quote_part:
        return f"quote leaves out words of the paper: '{_short(paper_part)}'"
    return f"wording differs: quote '{_short(quote_part)}' vs paper '{_short(paper_part)}'"


def _short(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."
