"""Claim checks that need no model.

A claim is flagged when a number, percentage, named dataset or metric it states is absent
from its located evidence and the lines around it, or when it points at a table, figure,
section, appendix or equation the paper does not have. Each failure is one plain reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rapidfuzz.distance import Levenshtein

from papermind.domain import Evidence, Paper
from papermind.grounding.facts import facts_of, references_in
from papermind.grounding.text import compact, fold, norm_words, numbers_in

METRICS = (
    "accuracy", "precision", "recall", "f1", "f-score", "f-measure", "auc", "auroc", "auprc",
    "perplexity", "bleu", "rouge", "meteor", "cider", "spice", "mrr", "ndcg", "mse", "rmse",
    "mae", "fid", "inception score", "psnr", "ssim", "lpips", "wer", "cer", "exact match",
    "error rate", "top-1", "top-5", "log-likelihood", "elbo", "iou", "miou", "kl divergence",
    "bits per dimension", "success rate", "win rate", "pass@1", "spearman", "pearson",
)
_METRIC = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, METRICS)) + r")(?![\w-])")
_COMMON_CAPS = {"AI", "ML", "NLP", "LLM", "LLMS", "GPU", "GPUS", "CPU", "I", "II", "III", "US",
                "UK", "EU", "OK", "PDF", "API", "SOTA", "ID"}
_STRUCTURE = re.compile(r"\b(?:Tab(?:le|\.)|Fig(?:ure|\.)?|Sections?|Sec\.|Appendix|"
                        r"Equations?|Eqs?\.|Eqn\.?)\s*\(?[A-Z]?\d+(?:[.\-]\d+)*\)?|\u00a7\s*\d+(?:\.\d+)*",
                        re.IGNORECASE)
_AUTHOR_YEAR = re.compile(r"(?:et al\.?|[A-Z][a-z]+),?\s*\(?(?:19|20)\d{2}[a-z]?\)?")
_NUMERIC = re.compile(r"-?\d+(?:[.,]\d+)*%?")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\[])")
_NAMED = re.compile(r"(?<![\w.\-])[A-Za-z][\w\-@]*[A-Za-z0-9]")


@dataclass(frozen=True, slots=True)
class Failure:
    """One failed check: why, and whether the cited text says otherwise (vs. says nothing)."""

    reason: str
    contradicts: bool = False


def check_claim(claim: str, evidence: Evidence, paper: Paper) -> list[Failure]:
    """Checks ``claim`` fails against ``evidence`` in ``paper`` (empty: none failed)."""
    return [Failure(r, r.startswith("the claim says")) for r in _reasons(claim, evidence, paper)]


def _reasons(claim: str, evidence: Evidence, paper: Paper) -> list[str]:
    facts = facts_of(paper)
    reasons = [f"{kind} {label} does not exist in the paper"
               for kind, label in dict.fromkeys(references_in(claim)) if not facts.has(kind, label)]
    anchor = evidence.anchor
    if anchor is None:
        return [*reasons, "the evidence was not found in the paper, so the claim is unsupported"]
    around = facts.context(anchor.page, anchor.line_start, anchor.page_end or anchor.page,
                           anchor.line_end)
    context = " ".join([evidence.matched_text, sentence_window(around, evidence.matched_text)])
    stripped = _AUTHOR_YEAR.sub(" ", _STRUCTURE.sub(" ", claim))
    have = numbers_in(context)
    reasons += [f"the number {n} is not in the evidence or its context"
                for n in dict.fromkeys(numbers_in(stripped)) if not _number_supported(n, have)]
    reasons += _swapped_numbers(stripped, evidence.matched_text, reasons)
    keys = set(norm_words(context)) | set(re.findall(r"[^\W_]+", fold(context)))
    flat = compact(context)
    reasons += [f"'{term}' is not in the evidence or its context"
                for term in named_terms(stripped) if not _term_supported(term, keys, flat)]
    return reasons


def sentence_window(around: str, evidence: str) -> str:
    """The sentences of ``around`` that hold the evidence, with one sentence either side."""
    flat = " ".join(around.split())
    head = " ".join(evidence.split()[:6])
    at = flat.find(head) if head else -1
    if at < 0:
        return flat
    bounds = [0, *(m.end() for m in _SENTENCE_END.finditer(flat)), len(flat)]
    first = max(i for i, b in enumerate(bounds) if b <= at)
    last = min(i for i, b in enumerate(bounds) if b >= at + len(" ".join(evidence.split())))
    return flat[bounds[max(0, first - 1)]:bounds[min(len(bounds) - 1, last + 1)]]


def named_terms(text: str) -> list[str]:
    """Metric names and name-like words (CIFAR-10, ImageNet, BLEU, F1) in ``text``."""
    terms: dict[str, None] = {}
    folded = fold(text)
    for metric in _METRIC.findall(folded):
        terms[metric] = None
    for match in _NAMED.finditer(text):
        word = match.group().rstrip(".")
        inner_caps = any(c.isupper() for c in word[1:])
        mixed_digits = any(c.isdigit() for c in word) and any(c.isalpha() for c in word)
        named = (inner_caps or mixed_digits) and word.upper() not in _COMMON_CAPS
        if named and fold(word) not in terms:
            terms[word] = None
    return list(terms)


def _swapped_numbers(claim: str, evidence: str, already: list[str]) -> list[str]:
    """Where the claim restates the evidence word for word but swaps one number for another
    (the swapped words sit between words both texts share)."""
    ours, theirs = norm_words(claim), norm_words(evidence)
    found = []
    ops = list(Levenshtein.opcodes(ours, theirs))
    for i, op in enumerate(ops):
        inside = 0 < i < len(ops) - 1 and ops[i - 1].tag == ops[i + 1].tag == "equal"
        if not inside or op.tag != "replace" or op.src_end - op.src_start != op.dest_end - op.dest_start:
            continue
        for a, b in zip(ours[op.src_start:op.src_end], theirs[op.dest_start:op.dest_end],
                        strict=True):
            if (_NUMERIC.fullmatch(a) and _NUMERIC.fullmatch(b) and not _number_supported(a, [b])
                    and not any(a in r for r in already)):
                found.append(f"the claim says {a} where the evidence says {b}")
    return found


def _term_supported(term: str, keys: set[str], flat: str) -> bool:
    words = norm_words(term)
    if len(words) == 1:
        key = words[0]
        plural_of = key[:-1] if key.endswith("s") else None
        return (key in keys or key + "s" in keys or plural_of in keys
                or (len(key) >= 5 and key in flat))
    return "".join(words) in flat


def _number_supported(number: str, have: list[str]) -> bool:
    value, decimals = _value(number)
    if value is None:
        return True
    percent = number.endswith("%")
    for other in have:
        v, _ = _value(other)
        if v is None:
            continue
        candidates = [v, v * 100] if percent and not other.endswith("%") else [v]
        if other.endswith("%") and not percent:
            candidates.append(v / 100)
        for c in candidates:
            if abs(c - value) < 1e-9:
                return True
            if _significant(number) >= 2 and abs(round(c, decimals) - value) < 1e-9:
                return True
    return False


def _value(number: str) -> tuple[float | None, int]:
    digits = number.rstrip("%").replace(",", ".")
    try:
        value = float(digits)
    except ValueError:
        return None, 0
    mantissa = digits.lower().split("e", 1)[0]
    decimals = len(mantissa.split(".", 1)[1]) if "." in mantissa else 0
    return value, decimals


def _significant(number: str) -> int:
    return len(number.strip("-%").replace(".", "").replace(",", "").lstrip("0"))
