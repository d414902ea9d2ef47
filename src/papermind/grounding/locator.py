"""QuoteLocator: find where a paper says a quote, or say that it does not.

Three stages, cheapest first, on a paper indexed once (``FlowIndex``):

1. *exact*: the quote's words, single-spaced, occur verbatim in the flow text;
2. *normalized*: the same after folding case, accents, ligatures, quotes, dashes,
   hyphenation across line breaks and spacing;
3. *fuzzy*: word alignment on candidate windows (see ``alignment``), scored in [0, 1].

Policy: an exact or normalised match is found as is. A fuzzy match is *found* when its
score reaches ``min_score`` (the anchor and the paper's text are reported so a user sees
the difference); unless every difference is cosmetic, code lowers its support to
``not_enough`` with the differences as the reason. Cosmetic differences are: spelling
variants ('modelling'/'modeling'), split or joined words, a left-out citation marker, or
whole lines of a caption / footnote / column break interrupting the text. A changed number,
word or symbol, an added word or an unmarked omission is not cosmetic. Omissions
marked with '...' are fine: each part is located in order, at most MAX_ELLIPSIS_GAP words
after the one before.
"""

from __future__ import annotations

from papermind.domain import Evidence, MatchMethod, Paper, Support
from papermind.grounding.alignment import Match, fuzzy_match
from papermind.grounding.index import FlowIndex
from papermind.grounding.text import norm_token, split_ellipsis, strip_quote_marks, words

DEFAULT_MIN_SCORE = 0.75
MAX_ELLIPSIS_GAP = 150
"""Most words an '...' may stand for; farther parts are not one quote."""
MAX_CHAIN_TRIES = 20
_REPEATED = "the text occurs more than once in the paper; the first occurrence is shown"
_RANK: dict[str, int] = {"exact": 0, "normalized": 1, "fuzzy": 2}


class QuoteLocator:
    """Locates quotes in one paper; build once, call ``locate`` many times."""

    def __init__(self, paper: Paper, *, min_score: float = DEFAULT_MIN_SCORE) -> None:
        self.paper = paper
        self.index = FlowIndex(paper)
        self.min_score = min_score
        self._compact_starts = set(self.index.compact_starts)
        self._compact_starts.add(len(self.index.compact))

    def locate(self, quote: str) -> Evidence:
        """Evidence for ``quote``: anchor, paper text, score, method, reasons and notes."""
        parts = split_ellipsis(strip_quote_marks(quote))
        if not parts:
            return Evidence(quote=quote, reasons=["empty quote"])
        if len(parts) == 1:
            match = self.match(parts[0])
            if match is None:
                return Evidence(quote=quote, reasons=["quote not found in the paper"])
            return self._evidence(quote, [match])
        chain, missing = self._chain(parts)
        if chain is None:
            return Evidence(quote=quote, reasons=[f"part '{missing}' of the quote not found "
                                                  "in the paper after the part before it"])
        return self._evidence(quote, chain)

    def match(self, text: str, after: int = 0, before: int | None = None) -> Match | None:
        """Best match of one continuous piece of text within tokens ``after``..``before``."""
        end = len(self.index.tokens) if before is None else min(before, len(self.index.tokens))
        if after >= end:
            return None
        exact, normal = self._exact(text, after, end), self._normalized(text, after, end)
        if exact is not None and (normal is None or exact.first <= normal.first):
            if normal is not None and normal.notes:
                exact.notes = normal.notes
            return exact
        return normal or self._fuzzy(text, after, end)

    def _chain(self, parts: list[str]) -> tuple[list[Match] | None, str]:
        """Parts of an elided quote located in order, each close after the one before.

        Heads are tried in document order; the first chain without differences wins, else
        the best-scoring chain found.
        """
        after, best, missing = 0, None, parts[0]
        for _ in range(MAX_CHAIN_TRIES):
            head = self.match(parts[0], after)
            if head is None:
                break
            chain, missing = self._follow(head, parts[1:])
            if chain is not None:
                if not any(m.problems for m in chain) and all(m.method != "fuzzy" for m in chain):
                    return [_without_repeat_note(m) for m in chain], ""
                if best is None or _quality(chain) > _quality(best):
                    best = chain
            after = head.first + 1
        if best is None:
            return None, missing
        return [_without_repeat_note(m) for m in best], ""

    def _follow(self, head: Match, parts: list[str]) -> tuple[list[Match] | None, str]:
        chain = [head]
        for part in parts:
            start = chain[-1].last + 1
            nxt = self.match(part, start, start + MAX_ELLIPSIS_GAP + 2 * len(words(part)))
            if nxt is None:
                return None, part
            chain.append(nxt)
        return chain, ""

    def _exact(self, text: str, after: int, end: int) -> Match | None:
        needle = " ".join(words(text))
        idx = self.index
        limit = idx.flat_starts[end] if end < len(idx.tokens) else len(idx.flat)
        pos = idx.flat.find(needle, idx.flat_starts[after], limit) if needle else -1
        found: list[int] = []
        while pos >= 0 and len(found) < 2:
            if _boundary(idx.flat, pos, pos + len(needle)):
                found.append(pos)
            pos = idx.flat.find(needle, pos + 1, limit)
        if not found:
            return None
        first, last = idx.token_at_flat(found[0]), idx.token_at_flat(found[0] + len(needle) - 1)
        return _certain(first, last, "exact", len(found) > 1)

    def _normalized(self, text: str, after: int, end: int) -> Match | None:
        needle = "".join(key for key in (norm_token(w) for w in words(text)) if key)
        idx = self.index
        limit = idx.compact_starts[end] if end < len(idx.tokens) else len(idx.compact)
        pos = idx.compact.find(needle, idx.compact_starts[after], limit) if needle else -1
        found: list[int] = []
        while pos >= 0 and len(found) < 2:
            if pos in self._compact_starts and pos + len(needle) in self._compact_starts:
                found.append(pos)
            pos = idx.compact.find(needle, pos + 1, limit)
        if not found:
            return None
        first = idx.token_at_compact(found[0])
        last = idx.token_at_compact(found[0] + len(needle) - 1)
        return _certain(first, last, "normalized", len(found) > 1)

    def _fuzzy(self, text: str, after: int, end: int) -> Match | None:
        pairs = [(w, k) for w, k in ((w, norm_token(w)) for w in words(text)) if k]
        match = fuzzy_match(self.index, [w for w, _ in pairs], [k for _, k in pairs], after, end)
        if match is None or match.score < self.min_score:
            return None
        return match

    def _evidence(self, quote: str, matches: list[Match]) -> Evidence:
        first, last = matches[0].first, matches[-1].last
        method = max((m.method for m in matches), key=_RANK.__getitem__)
        problems = [p for m in matches for p in m.problems]
        notes = [n for m in matches for n in m.notes]
        text = " [...] ".join(self.index.span_text(m.first, m.last) for m in matches)
        support = Support() if not problems else Support(
            verdict="not_enough", by="code",
            reason="the quote differs from the paper's text: " + "; ".join(problems))
        return Evidence(
            quote=quote, anchor=self.index.anchor(first, last), matched_text=text,
            score=min(m.score for m in matches), method=method, support=support,
            reasons=problems, notes=notes)


def _certain(first: int, last: int, method: MatchMethod, repeated: bool) -> Match:
    return Match(first, last, method, 1.0, notes=[_REPEATED] if repeated else [])


def _quality(chain: list[Match]) -> tuple[bool, float]:
    return (not any(m.problems for m in chain), min(m.score for m in chain))


def _without_repeat_note(match: Match) -> Match:
    """Parts of an elided quote repeat elsewhere by nature; only their order matters."""
    match.notes = [n for n in match.notes if n != _REPEATED]
    return match


def _boundary(flat: str, start: int, end: int) -> bool:
    """The match does not begin or end inside a word."""
    before_ok = start == 0 or not (flat[start - 1].isalnum() and flat[start].isalnum())
    after_ok = end == len(flat) or not (flat[end - 1].isalnum() and flat[end].isalnum())
    return before_ok and after_ok
