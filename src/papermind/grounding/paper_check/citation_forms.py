"""Whether an unresolved author-year marker names people: 'Smith et al. (2020)' does,
'PubMed (2018)', 'BERTScore-DB-XL (2020)' and 'Discrete Algorithms (2000)' do not.

A capitalised word before a year is a citation only when it has a surname's form: a
capital, then lower-case letters (accents, apostrophes and hyphenated parts allowed:
'Caballero-Gaudes', "O'Neil"), with the inner capital of a surname prefix ('McDonald',
'LeCun', 'DeVries'). Digits, runs of capitals ('BERT', 'ELMo'), an inner capital after no
prefix ('PubMed', 'OpenSubtitles') or a word of :data:`NOT_NAMES` make it the name of a
dataset, system, metric or venue.
"""

from __future__ import annotations

import re
import unicodedata

_LETTERS = r"A-Za-z\u00C0-\u024F"
_CJK = re.compile(r"^[\u4e00-\u9fff]{2,4}$")
_WORD = re.compile(rf"[\u4e00-\u9fff]{{2,4}}|[{_LETTERS}0-9'’`´\-]+")
_PREFIX = re.compile(r"^(?:Mc|Mac|De|Di|Da|Du|Le|La|Van|Von|Fitz|D'|O'|D’|O’)(?=[A-Z])")
_PART = re.compile(r"^[A-Z][a-z'’`´]+$")
_SKIP = {"et", "al", "and", "al.", "etal"}

NOT_NAMES = frozenset({
    # venues, publishers and kinds of publication
    "arxiv", "corr", "proceedings", "conference", "symposium", "workshop", "journal",
    "transactions", "letters", "press", "series", "volume", "edition", "algorithms",
    "report", "thesis", "preprint", "survey", "review", "handbook", "encyclopedia",
    # the paper's own parts
    "table", "tables", "figure", "fig", "section", "appendix", "chapter", "equation", "eq",
    "theorem", "lemma", "algorithm", "step", "version", "release", "update", "round", "phase",
    # datasets, sources and tasks printed with a year
    "pubmed", "medline", "wikipedia", "wikidata", "imagenet", "reddit", "twitter", "github",
    "dataset", "datasets", "corpus", "benchmark", "challenge", "task", "track", "competition",
    "census", "semeval", "conll", "trec", "clef", "wmt", "iwslt", "kaggle", "openai", "google",
    "microsoft", "meta", "amazon", "yelp", "news", "model", "models", "baseline", "ours",
    # months and seasons ('(May 2020)' is a date)
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december", "spring", "summer", "autumn", "fall", "winter",
})
"""Capitalised words that name a venue, a part of the paper, a data source or a date, not
a person; compared folded (lower case, no accents)."""


def _fold(word: str) -> str:
    plain = unicodedata.normalize("NFKD", word)
    return "".join(ch for ch in plain if ch.isalpha()).lower()


def names_of(marker: str) -> list[str]:
    """The capitalised words of a marker that would be surnames ('Smith'; 'Berg' of 'van der
    Berg': particles are lower case)."""
    text = re.sub(r"\(|\)|&amp;|\bet\s+al\b\.?", " ", marker)
    words = [m.group().strip("-'’") for m in _WORD.finditer(text)]
    return [w for w in words if w.lower() not in _SKIP and (w[:1].isupper() or _CJK.match(w))]


def plausible_surname(word: str) -> bool:
    """Whether ``word`` has the form of a surname (see the module's note)."""
    if _CJK.match(word):
        return True  # '张三' in '（张三等, 2020）'
    if not word or any(ch.isdigit() for ch in word) or _fold(word) in NOT_NAMES:
        return False
    for part in re.split(r"[-‐]", word):
        part = unicodedata.normalize("NFC", part)
        plain = "".join(ch for ch in unicodedata.normalize("NFKD", part)
                        if not unicodedata.combining(ch))
        plain = _PREFIX.sub("", plain, count=1) if len(plain) > 3 else plain
        if not _PART.match(plain):
            return False
    return True


def names_people(marker: str) -> bool:
    """Whether every name of ``marker`` is a plausible surname (and it has one)."""
    names = names_of(marker)
    return bool(names) and all(plausible_surname(n) for n in names)


_BULLET = re.compile(r"^\s*(?:[-*+\u2022]|\d{1,2}[.)])\s+")
_LETTER_WORD = re.compile(rf"[{_LETTERS}]{{2,}}")


def labels_an_item(marker: str, line: str) -> bool:
    """Whether a one-name narrative marker ('Transformer (2017)', not 'Smith et al. (2017)'
    or '(Smith, 2017)') is a label rather than prose: it opens a list item, its line holds
    hardly any other words (a table cell read as a line), or it ends a run of capitalised
    words inside a sentence ('the Penn Treebank (1993)', 'on Discrete Algorithms (2000)')."""
    if marker.startswith(("(", "\uff08")) or re.search(r"\bet\s+al\b|\band\b|&", marker):
        return False
    at = line.find(marker)
    rest = line.replace(marker, " ", 1)
    opens_item = bool(_BULLET.match(line)) and _BULLET.sub("", line).startswith(marker)
    return opens_item or len(_LETTER_WORD.findall(rest)) < 3 or \
        (at > 0 and _PROPER_RUN.search(line[:at]) is not None)


_PROPER_RUN = re.compile(r"[a-z,;:]\s+[A-Z][\w\-]*\s+$")
"""Text before a marker that ends in a capitalised word following a lower-case word or a
comma: the marker's name is the last word of a proper name, not a surname."""
