"""Light edits, paraphrases and fabricated sentences derived from genuine spans.

Every derived quote is checked not to occur in the paper as written, so a negative case
is never accidentally true.
"""

from __future__ import annotations

import random
import re
import zlib
from collections.abc import Callable, Iterator

from rapidfuzz.distance import Indel

from papermind.evaluation.perturb.quotes import (
    PROSE,
    SYNONYMS,
    Body,
    Case,
    Word,
    genuine_cases,
    random_spans,
)

Editor = Callable[[list[str], random.Random], str | None]


def build_cases(bodies: list[Body], per_kind: int, seed: int = 7) -> list[Case]:
    """Up to ``per_kind`` cases of every kind for every body (deterministic)."""
    cases: list[Case] = []
    for body in bodies:
        rng = random.Random(seed * 1_000_003 + zlib.crc32(body.name.encode()))
        others = [b for b in bodies if b is not body]
        cases += genuine_cases(body, rng, per_kind)
        cases += edited_cases(body, others, rng, per_kind)
    return cases


def edited_cases(body: Body, others: list[Body], rng: random.Random, n: int) -> list[Case]:
    """Number / word changes, dropped words, '...' omissions, paraphrases, fabrications."""
    spans = random_spans(body, rng, (12, 25))
    vocab = sorted({_strip(w.text) for w in body.words if _content(w.text, 4)})
    editors: dict[str, Editor] = {
        "number_changed": change_number,
        "word_changed": lambda ws, r: _change_word(ws, r, vocab),
        "words_dropped": _drop_words,
        "ellipsis": _ellipsis,
        "paraphrase": _paraphrase,
        "fabricated_swapped": _swap_terms,
    }
    cases: list[Case] = []
    for kind, edit in editors.items():
        pool = number_spans(body, rng) if kind == "number_changed" else spans
        made = 0
        for words in pool:
            quote = edit([w.text for w in words], rng)
            if quote and (kind == "ellipsis" or body.occurrences(quote) == 0):
                cases.append(body.case(kind, words, quote))
                made += 1
            if made >= n:
                break
    return cases + _fabricated(body, others, rng, spans, n)


def _fabricated(body: Body, others: list[Body], rng: random.Random, spans: list[list[Word]],
                n: int) -> list[Case]:
    if not others:
        return []
    cases: list[Case] = []
    for words in spans:
        other = rng.choice(others)
        foreign = random_spans(other, rng, (12, 25), tries=20)
        if not foreign:
            continue
        half = max(6, len(words) // 2)
        stitched = " ".join([w.text for w in words[:half]] + [w.text for w in foreign[0][-half:]])
        whole = " ".join(w.text for w in foreign[0])
        if sum(c.kind == "fabricated_stitched" for c in cases) < n and not body.occurrences(stitched):
            cases.append(Case(body.name, "fabricated_stitched", stitched))
        if sum(c.kind == "fabricated_foreign" for c in cases) < n and not body.occurrences(whole):
            cases.append(Case(body.name, "fabricated_foreign", whole))
        if len(cases) >= 2 * n:
            break
    return cases


def number_spans(body: Body, rng: random.Random) -> Iterator[list[Word]]:
    """Prose spans around words that hold a digit (lazily: callers take what they need)."""
    starts = [i for i, w in enumerate(body.words) if re.search(r"\d", w.text)]
    for start in rng.sample(starts, len(starts)):
        length = rng.randint(10, 20)
        words = body.span(start - rng.randint(2, min(8, length - 2)), length)
        if words:
            yield words


def change_number(words: list[str], rng: random.Random, measured_only: bool = False) -> str | None:
    """One digit of one number changed. ``measured_only``: leave years, citation markers and
    table / section / equation numbers alone (a claim check treats those apart)."""
    idx = [i for i, w in enumerate(words) if re.search(r"\d", w)
           and not (measured_only and _not_a_measure(words, i))]
    if not idx:
        return None
    i = rng.choice(idx)
    digits = [k for k, c in enumerate(words[i]) if c.isdigit()]
    k = rng.choice(digits)
    new = rng.choice([d for d in "0123456789" if d != words[i][k]])
    out = list(words)
    out[i] = words[i][:k] + new + words[i][k + 1:]
    return " ".join(out)


def _change_word(words: list[str], rng: random.Random, vocab: list[str]) -> str | None:
    idx = [i for i in range(1, len(words) - 1) if _content(words[i], 4)]
    if not idx or not vocab:
        return None
    i = rng.choice(idx)
    old = _strip(words[i])
    for _ in range(20):
        new = rng.choice(vocab)
        if Indel.normalized_similarity(new.lower(), old.lower()) < 0.7:
            out = list(words)
            out[i] = words[i].replace(old, new)
            return " ".join(out)
    return None


def _not_a_measure(words: list[str], i: int) -> bool:
    """Years, markers, labels and names with digits ('V1', 'Lq2') are not measured values."""
    before = words[i - 1].lower() if i else ""
    numeric = re.fullmatch(r"[-\d.,%]*\d[-\d.,%]*[,.;:]?", words[i])
    return not numeric or bool(re.search(r"(?:19|20)\d\d", words[i])) or before.startswith(
        ("table", "fig", "sec", "eq", "appendix", "lemma", "theorem", "step", "\u00a7"))


def _drop_words(words: list[str], rng: random.Random) -> str | None:
    k = rng.randint(1, 3)
    if len(words) < k + 5:
        return None
    pos = rng.randint(2, len(words) - 2 - k)
    if any(c in w for w in words[pos:pos + k] for c in "()[]") or not all(
            any(c.isalnum() for c in w) for w in words[pos:pos + k]):
        return None  # leaving out a citation marker is allowed; not a test of this kind
    return " ".join(words[:pos] + words[pos + k:])


def _ellipsis(words: list[str], rng: random.Random) -> str | None:
    k = rng.randint(3, 8)
    if len(words) < k + 7:
        return None
    pos = rng.randint(3, len(words) - 3 - k)
    return " ".join(words[:pos]) + " ... " + " ".join(words[pos + k:])


def _paraphrase(words: list[str], rng: random.Random) -> str | None:
    out, edits = [], 0
    for w in words:
        core = _strip(w)
        swap = SYNONYMS.get(core.lower())
        out.append(w.replace(core, swap) if swap else w)
        edits += swap is not None
    commas = [i for i in range(3, len(out) - 3) if out[i].endswith(",")]
    if commas:
        c = rng.choice(commas)
        left, right = [*out[:c], out[c].rstrip(",")], [x.rstrip(".") for x in out[c + 1:]]
        out = [*right, ",", *left]
        edits += 1
    return " ".join(out).replace(" ,", ",") if edits >= 2 else None


def _swap_terms(words: list[str], rng: random.Random) -> str | None:
    idx = [i for i, w in enumerate(words) if _content(w, 5)]
    pairs = [(a, b) for a in idx for b in idx if a < b and Indel.normalized_similarity(
        _strip(words[a]).lower(), _strip(words[b]).lower()) < 0.7]
    if not pairs:
        return None
    a, b = rng.choice(pairs)
    out = list(words)
    wa, wb = _strip(words[a]), _strip(words[b])
    out[a], out[b] = words[a].replace(wa, wb), words[b].replace(wb, wa)
    return " ".join(out)


def _content(word: str, min_len: int) -> bool:
    return bool(PROSE.fullmatch(word)) and len(_strip(word)) >= min_len


def _strip(word: str) -> str:
    return word.strip(",.;:()\"'")
