"""Model-free checks of a claim against the text it cites.

Each failed check is one ``Failure``: a plain reason, and whether the cited text says
otherwise (``contradicts``) or merely does not say what the claim states.

- numbers and percentages the claim states must be in the cited text or the sentences
  around it (a rounding or a fraction for a percentage is fine); a number swapped for
  another where the claim restates the text contradicts it;
- dataset, metric and method names (metric names, CIFAR-10-like and inner-capital words)
  must be in the cited text or around it; any other capitalised word the claim uses must
  occur somewhere in the paper (one opening a sentence only where it stands in place of a
  name of a sentence the claim restates: code cannot tell 'Only' from a name);
- negation, comparison direction and the numbers a claim restates are compared only
  between a claim sentence and the cited sentences it restates (``restating``: a strong
  alignment); a claim sentence without one is left unchecked for the checker model;
- a table, figure, section, appendix or equation the claim points at must exist.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from papermind.domain import Evidence, Paper
from papermind.grounding.edits import edits
from papermind.grounding.facts import PaperFacts, facts_of, references_in
from papermind.grounding.numbers import number_supported, swapped_numbers
from papermind.grounding.polarity import polarity_issues
from papermind.grounding.quantities import differing_values
from papermind.grounding.restating import Restatement, restatements
from papermind.grounding.text import compact, fold, norm_token, norm_words, numbers_in
from papermind.i18n.scripts import squeeze_cjk_spaces

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
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\[])|(?<=[\u3002\uff01\uff1f])\s*")
_NAMED = re.compile(r"(?<![\w.\-])[A-Za-z][\w\-@]*[A-Za-z0-9]")
_CAPITALISED = re.compile(r"(?<![.!?:]\s)(?<!^)(?<![\w\-])([A-Z][a-z]{2,}(?:-[A-Za-z]+)?)\b")


@dataclass(frozen=True, slots=True)
class Failure:
    """One failed check: why, and whether the cited text says otherwise."""

    reason: str
    contradicts: bool = False


def check_claim(claim: str, evidence: Evidence, paper: Paper) -> list[Failure]:
    """Checks ``claim`` fails against ``evidence`` in ``paper`` (empty: none failed)."""
    facts = facts_of(paper)
    failures = [Failure(f"{kind} {label} does not exist in the paper")
                for kind, label in dict.fromkeys(references_in(claim)) if not facts.has(kind, label)]
    anchor = evidence.anchor
    if anchor is None:
        return [*failures, Failure("the evidence was not found in the paper")]
    around = facts.context(anchor.page, anchor.line_start, anchor.page_end or anchor.page,
                           anchor.line_end)
    context = " ".join([evidence.matched_text, sentence_window(around, evidence.matched_text)])
    stripped = _AUTHOR_YEAR.sub(" ", _STRUCTURE.sub(" ", claim))
    pairs = restatements(claim, evidence.matched_text)  # 'Table 2' on both sides aligns
    failures += _number_failures(stripped, pairs, numbers_in(context), evidence.matched_text)
    failures += _name_failures(stripped, context, facts, pairs, evidence.matched_text)
    failures += [Failure(i.reason, i.contradicts)
                 for pair in pairs for i in polarity_issues(pair.claim, pair.text)]
    return list(dict.fromkeys(failures))


def sentence_window(around: str, evidence: str) -> str:
    """The sentences of ``around`` that hold the evidence, with one sentence either side."""
    flat = squeeze_cjk_spaces(" ".join(around.split()))
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


def _number_failures(claim: str, pairs: list[Restatement], have: list[str],
                     cited: str) -> list[Failure]:
    """A number swapped where the claim restates the text, or given for the quantity a cited
    number counts, contradicts it; any other number the text lacks is not enough."""
    unsupported = [n for n in dict.fromkeys(numbers_in(claim)) if not number_supported(n, have)]
    swapped = dict.fromkeys([*(s for pair in pairs for s in swapped_numbers(pair.claim, pair.text)),
                             *_other_values(claim, pairs, cited, unsupported)])
    failures = [Failure(f"the claim says {a} where the cited text says {b}", True)
                for a, b in swapped]
    said = {a.replace(",", "") for a, _ in swapped}
    failures += [Failure(f"the number {n} is not in the cited text or around it")
                 for n in unsupported if n.replace(",", "") not in said]
    return failures


def _other_values(claim: str, pairs: list[Restatement], cited: str,
                  unsupported: list[str]) -> list[tuple[str, str]]:
    """Unsupported claim numbers for which the cited text gives another value of the same
    quantity: in a restated sentence (two words of what it counts in common), else in the
    cited text (three)."""
    if not unsupported:
        return []
    keys = norm_words(claim)
    found = [d for pair in pairs for d in differing_values(pair.claim, pair.text)]
    if not found:
        found = differing_values(keys, norm_words(cited), min_shared=3)
    wanted = {n.replace(",", "") for n in unsupported}
    return [(a, b) for a, b in found if a.replace(",", "") in wanted]


def _name_failures(claim: str, context: str, facts: PaperFacts,
                   pairs: list[Restatement], cited: str) -> list[Failure]:
    keys = set(norm_words(context)) | set(re.findall(r"[^\W_]+", fold(context)))
    flat = compact(context)
    terms = named_terms(claim)
    failures = [Failure(f"'{term}' is not in the cited text or around it")
                for term in terms if not _term_supported(term, keys, flat)]
    known = {fold(t) for t in terms}
    words = [*(m.group(1) for m in _CAPITALISED.finditer(claim)), *_opening_names(cited, pairs)]
    for word in dict.fromkeys(words):
        singular = word[:-1] if word.endswith("s") else word
        if fold(word) not in known and not facts.mentions(word) and not facts.mentions(singular):
            failures.append(Failure(f"'{word}' does not occur anywhere in the paper"))
    return failures


def _opening_names(cited: str, pairs: list[Restatement]) -> list[str]:
    """Capitalised words opening a claim sentence that stand, in a sentence the claim
    restates, where the cited text has a name ('Switchboard uses ...' for 'TEXTRUNNER uses
    ...'); any other opening word ('Only', 'Findings') may be plain English."""
    names = {norm_token(t) for t in named_terms(cited)}
    found = []
    for pair in pairs:
        for edit in edits(pair.claim, pair.text):
            if any(t in names for t in edit.theirs):
                found += [pair.openers[w] for w in edit.ours if w in pair.openers]
    return found


def _term_supported(term: str, keys: set[str], flat: str) -> bool:
    """True when ``term`` is in the context; 'GloVe-based', 'OSA-specific' need their name
    part only (a lowercase word joined by a hyphen describes the name)."""
    parts = term.split("-")
    named = [p for p in parts if not (p.isalpha() and p.islower() and len(p) >= 3)]
    if 0 < len(named) < len(parts):
        term = "-".join(named)
    words = norm_words(term)
    if len(words) == 1:
        key = words[0]
        plural_of = key[:-1] if key.endswith("s") else None
        return (key in keys or key + "s" in keys or plural_of in keys
                or (len(key) >= 5 and key in flat))
    return "".join(words) in flat
