"""The paper's flow text indexed once: tokens, their keys, and the map back to lines.

Flow lines (reading order, furniture excluded) are concatenated with ``\\n``. A word split
by a hyphen at a line end is one token, shown as the paper's block text gives it: joined
where ingestion judged the hyphen a mere break ('evalu-' + 'ation' -> 'evaluation'), else
with its hyphen and no space ('self-attention'). Three views share the token list:

- ``flat``: raw words joined by single spaces (the *exact* match);
- ``compact``: token keys concatenated without spaces (the *normalised* match);
- ``postings``: key -> token positions (candidate windows for the *fuzzy* match).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from papermind.domain import Anchor, Box, Line, Paper
from papermind.grounding.text import norm_token, word_spans
from papermind.i18n.scripts import squeeze_cjk_spaces

_LINE_END_HYPHENS = ("-", "\u00ad", "\u2010", "\u2011", "\ufffe")


@dataclass(frozen=True, slots=True)
class Token:
    """One word of the flow: its key and where its raw text lies."""

    key: str
    start: int  # offset in FlowIndex.raw (inclusive)
    end: int  # offset in FlowIndex.raw (exclusive)
    first_line: int  # index into FlowIndex.lines
    last_line: int


class FlowIndex:
    """Tokens of a paper's flow lines with offset maps; built once per paper."""

    def __init__(self, paper: Paper) -> None:
        self.paper_id = paper.id
        self.lines: list[Line] = list(paper.lines())
        self.line_starts: list[int] = []
        parts: list[str] = []
        offset = 0
        for line in self.lines:
            self.line_starts.append(offset)
            parts.append(line.text)
            offset += len(line.text) + 1
        self.raw = "\n".join(parts)
        joined = dropped_hyphens(paper)
        self._joined_breaks = {self.line_starts[i] + len(ln.text) for i, ln in enumerate(self.lines)
                               if (ln.page, ln.n) in joined}
        self.tokens: list[Token] = self._tokenize()
        self.keys: list[str] = [t.key for t in self.tokens]
        self.flat, self.flat_starts = _joined(
            [self._display(t.start, t.end) for t in self.tokens], " ")
        self.compact, self.compact_starts = _joined(self.keys, "")
        self.postings: dict[str, list[int]] = {}
        for i, key in enumerate(self.keys):
            self.postings.setdefault(key, []).append(i)

    def _tokenize(self) -> list[Token]:
        tokens: list[Token] = []
        carry: tuple[int, int] | None = None  # (raw start, line index) of a hyphenated head
        for li, line in enumerate(self.lines):
            base = self.line_starts[li]
            words = _word_spans(line.text)
            for wi, (ws, we) in enumerate(words):
                start, first = carry if carry is not None else (base + ws, li)
                carry = None
                if wi == len(words) - 1 and _ends_hyphenated(line.text[ws:we]) and \
                        self._continues_lower(li + 1):
                    carry = (start, first)
                    continue
                self._add(tokens, start, base + we, first, li)
        return tokens

    def _continues_lower(self, li: int) -> bool:
        """True when line ``li`` starts with a lower-case letter (a word's second half)."""
        text = self.lines[li].text.lstrip() if li < len(self.lines) else ""
        return text[:1].islower()

    def _add(self, tokens: list[Token], start: int, end: int, first: int, last: int) -> None:
        key = norm_token(self.raw[start:end].replace("\n", ""))
        if key:
            tokens.append(Token(key, start, end, first, last))

    def token_at_flat(self, offset: int) -> int:
        """Index of the token whose text holds ``flat[offset]``."""
        return bisect_right(self.flat_starts, offset) - 1

    def token_at_compact(self, offset: int) -> int:
        """Index of the token whose key holds ``compact[offset]``."""
        return bisect_right(self.compact_starts, offset) - 1

    def span_text(self, first: int, last: int) -> str:
        """The paper's text from token ``first`` to ``last`` (line breaks joined)."""
        text = " ".join(self._display(self.tokens[first].start, self.tokens[last].end).split())
        return squeeze_cjk_spaces(text)  # a line break inside Chinese text is no space

    def anchor(self, first: int, last: int) -> Anchor:
        """Anchor covering tokens ``first``..``last`` with the boxes of the lines involved."""
        a, b = self.tokens[first].first_line, self.tokens[last].last_line
        head, tail = self.lines[a], self.lines[b]
        boxes: list[Box] = [line.box for line in self.lines[a:b + 1] if line.box is not None]
        return Anchor(paper_id=self.paper_id, page=head.page, line_start=head.n,
                      line_end=tail.n, page_end=tail.page if tail.page != head.page else None,
                      boxes=boxes)

    def starts_line(self, i: int) -> bool:
        """True when token ``i`` is the first token on its line."""
        return i == 0 or self.tokens[i - 1].last_line < self.tokens[i].first_line

    def ends_line(self, i: int) -> bool:
        """True when token ``i`` is the last token on its line."""
        return i == len(self.tokens) - 1 or self.tokens[i + 1].first_line > self.tokens[i].last_line

    def _display(self, start: int, end: int) -> str:
        """Raw text of ``[start, end)`` with hyphenated line breaks joined: the hyphen goes
        where the block text dropped it (and a soft hyphen always), else it stays."""
        out: list[str] = []
        pos = start
        while (brk := self.raw.find("\n", pos, end)) >= 0:
            piece = self.raw[pos:brk]
            if not piece.endswith(_LINE_END_HYPHENS):
                out.append(piece + "\n")
            elif brk in self._joined_breaks or piece[-1] in "\u00ad\ufffe":
                out.append(piece[:-1])
            else:
                out.append(piece)
            pos = brk + 1
        out.append(self.raw[pos:end])
        return "".join(out)


def dropped_hyphens(paper: Paper) -> set[tuple[int, int]]:
    """(page, line) of the lines whose line-end hyphen the paper's block text dropped."""
    texts = {(line.page, line.n): line.text for line in paper.lines()}
    out: set[tuple[int, int]] = set()
    for block in (*paper.paragraphs, *paper.captions, *paper.equations):
        for seg in block.segments:
            text = texts.get((seg.page, seg.line), "")
            if seg.line_end == len(text) - 1 and text.endswith(_LINE_END_HYPHENS):
                out.add((seg.page, seg.line))
    return out


def _word_spans(text: str) -> list[tuple[int, int]]:
    return word_spans(text)


def _ends_hyphenated(word: str) -> bool:
    return len(word) > 1 and word.endswith(_LINE_END_HYPHENS) and word[-2].isalpha()


def _joined(parts: list[str], sep: str) -> tuple[str, list[int]]:
    starts: list[int] = []
    offset = 0
    for part in parts:
        starts.append(offset)
        offset += len(part) + len(sep)
    return sep.join(parts), starts
