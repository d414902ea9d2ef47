"""Split words and wrongly kept hyphens in parsed PDFs, measured against pdftotext's text.

The check that is run on held-out PDFs, exactly:

* **split word**: two neighbouring words of one parsed line (``Line.text.split()``) whose
  join is a word of the same page's pdftotext text while one of them is absent from it
  ("di rected": "directed" is on the page, "di" is not).
* **wrongly kept hyphen**: a word "x-y" of a block's text (paragraphs, captions, equations;
  what a user copies) whose hyphen was a line break before a lower-case letter, where the
  joined word occurs elsewhere in the paper's pdftotext text (pdftotext joins every line-end
  hyphen itself, so one occurrence is its own join at that break) or the shipped word list
  has "xy" (the letters either side of the hyphen), while the paper never writes "x-y".

* the same split-word count over block texts (a break between two lines joined with a
  space: 'Frame' + 'work' -> 'Frame work'), against the pages the block lies on.

Words are compared after NFKC (ligatures), with soft hyphens, PDFium's markers and
zero-width marks removed, stripped of surrounding punctuation and case-folded. pdftotext is Debian's poppler-utils (GPL): it is
run as an external reference only, never imported by the product.

Command: ``.venv/bin/python bench/split_words.py [--out bench/results/split_words.md]``
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import unicodedata
from collections import Counter
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.shared_papers import parsed_pdfs, pdfs_dir

from papermind.domain import Paper
from papermind.ingest.word_spaces import bare_word
from papermind.ingest.wordlist import english_words

SETS = {"science_parse": ["science_parse"], "s2orc_doc2json": ["s2orc_doc2json",
                                                               "s2orc_doc2json_fixtures/pdf"],
        "ai_scientist_fewshot": ["ai_scientist_fewshot"], "generated_with_latex": ["generated_with_latex/*"],
        "docling": ["docling"], "zh": ["zh"]}


_INVISIBLE = str.maketrans(dict.fromkeys(map(ord, "\u00ad\ufffe\x02\u200b\u200c\u200d\u2060\ufeff")))


def pdftotext_pages(pdf: Path, *options: str) -> list[str] | None:
    """The PDF's text per page as ``pdftotext`` writes it; None where the tool is missing."""
    if shutil.which("pdftotext") is None:
        return None
    out = subprocess.run(["pdftotext", *options, "-enc", "UTF-8", str(pdf), "-"], capture_output=True,
                         check=False, timeout=120).stdout.decode("utf-8", "replace")
    return out.split("\f")


def key(word: str) -> str:
    """A word's comparison form: normalised, outer punctuation stripped, case-folded."""
    return bare_word(unicodedata.normalize("NFKC", word).translate(_INVISIBLE))


def vocabulary(text: str) -> Counter[str]:
    """How often each word occurs in a pdftotext text."""
    return Counter(k for k in map(key, text.split()) if k)


def whole_words(raw: str) -> Counter[str]:
    """The words of ``pdftotext -raw`` text (line-end hyphens kept) less the halves of
    words split at a line end: a line's hyphenated last word and the next line's first."""
    words: list[str] = []
    cut = False
    for line in raw.splitlines():
        tokens = line.split()
        if cut:
            tokens = tokens[1:]
        cut = line.rstrip().endswith("-")
        words += tokens[:-1] if cut else tokens
    return Counter(k for k in map(key, words) if k)


def split_words(text: str, vocab: Collection[str]) -> list[str]:
    """Neighbouring words of ``text`` that are one word of ``vocab``, split apart (a last
    word cut by a line-end hyphen is its first half, not a word)."""
    words = text.split()
    if words and words[-1][-1:] in "-\u00ad\ufffe\x02":
        words = words[:-1]
    found = []
    for left, right in zip(words, words[1:], strict=False):
        if not (left[-1:].isalpha() and right[:1].isalpha()):
            continue
        joined = key(left + right)
        if joined in vocab and (key(left) not in vocab or key(right) not in vocab):
            found.append(f"{left} {right}")
    return found


_PIECE = re.compile(r"[^\W\d_]+$"), re.compile(r"^[^\W\d_]+")


def hyphen_pairs(doc: Counter[str]) -> set[str]:
    """Every 'a-b' of neighbouring letter runs inside the pdftotext words."""
    return {f"{a}-{b}" for word in doc if "-" in word
            for a, b in zip(word.split("-"), word.split("-")[1:], strict=False)}


def kept_hyphens(paper: Paper, doc: Counter[str], wordlist: frozenset[str]) -> list[str]:
    """Words of block texts hyphenated at a line break where the paper writes them whole
    (``whole_words``) or the word list has the joined letters, and the paper never writes
    that hyphenated pair; a capital after the hyphen ('Un-MaxEnt') marks a compound and is
    not counted."""
    pairs = hyphen_pairs(doc)
    found = []
    for block in [*paper.paragraphs, *paper.captions, *paper.equations]:
        text = block.text
        for seg in block.segments[:-1]:
            end = seg.end
            if text[end - 1:end] != "-" or end >= len(text) or not text[end].islower():
                continue
            start, stop = text.rfind(" ", 0, end) + 1, (text.find(" ", end) + 1 or len(text) + 1) - 1
            head, tail = _PIECE[0].search(text[start:end - 1]), _PIECE[1].search(text[end:stop])
            if head is None or tail is None:
                continue
            first, second = head.group().casefold(), tail.group().casefold()
            whole = key(text[start:end - 1] + text[end:stop])
            if f"{first}-{second}" not in pairs and (whole in doc or first + second in wordlist):
                found.append(text[start:stop])
    return found


@dataclass
class Tally:
    papers: int = 0
    lines: int = 0
    split: list[str] = field(default_factory=list)
    block_split: list[str] = field(default_factory=list)
    hyphens: list[str] = field(default_factory=list)


def measure(pdf: Path, paper: Paper, tally: Tally) -> bool:
    """Add one paper's counts to ``tally``; False where pdftotext is missing."""
    pages = pdftotext_pages(pdf)
    if pages is None:
        return False
    vocabs = [vocabulary(text) for text in pages]
    doc_vocab = whole_words("\n".join(pdftotext_pages(pdf, "-raw") or []))
    tally.papers += 1
    for line in paper.lines():
        tally.lines += 1
        if line.page <= len(vocabs):
            tally.split += [f"{pdf.stem} p{line.page}: {w}" for w in split_words(line.text, vocabs[line.page - 1])]
    for block in [*paper.paragraphs, *paper.captions]:
        pages_of = {seg.page for seg in block.segments if seg.page <= len(vocabs)}
        vocab = set().union(*(vocabs[p - 1] for p in pages_of))
        tally.block_split += [f"{pdf.stem} block {block.id}: {w}" for w in split_words(block.text, vocab)]
    tally.hyphens += [f"{pdf.stem}: {w}" for w in kept_hyphens(paper, doc_vocab, english_words())]
    return True


def _folders(root: Path, patterns: Iterable[str]) -> list[str]:
    out = []
    for pattern in patterns:
        if pattern.endswith("/*"):
            base = pattern[:-2]
            out += [f"{base}/{p.name}" for p in sorted((root / base).iterdir()) if p.is_dir()]
        elif (root / pattern).is_dir():
            out.append(pattern)
    return out


def run(root: Path, sets: Iterable[str]) -> Iterator[tuple[str, Tally]]:
    for name in sets:
        tally = Tally()
        for pdf, paper in parsed_pdfs(root, _folders(root, SETS[name])):
            measure(pdf, paper, tally)
        yield name, tally


def report(results: list[tuple[str, Tally]], examples: int) -> str:
    rows = ["| set | papers | lines | split words (lines) | split words (block text) "
            "| wrongly kept hyphens |", "|---|---|---|---|---|---|"]
    rows += [f"| {name} | {t.papers} | {t.lines} | {len(t.split)} | {len(t.block_split)} "
             f"| {len(t.hyphens)} |" for name, t in results]
    total = [sum(len(getattr(t, f)) for _, t in results) for f in ("split", "block_split", "hyphens")]
    rows.append(f"| **all** | {sum(t.papers for _, t in results)} | {sum(t.lines for _, t in results)} "
                f"| {total[0]} | {total[1]} | {total[2]} |")
    for name, t in results:
        shown = [*t.split[:examples], *t.block_split[:examples], *t.hyphens[:examples]]
        if shown:
            rows += ["", f"{name} examples:", *[f"- `{s}`" for s in shown]]
    return "\n".join(rows) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", nargs="*", default=list(SETS))
    parser.add_argument("--examples", type=int, default=8)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    root = pdfs_dir()
    if root is None or shutil.which("pdftotext") is None:
        print("skip: shared PDFs or pdftotext (poppler-utils) not found")
        return
    results = list(run(root, args.sets))
    text = report(results, args.examples)
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
