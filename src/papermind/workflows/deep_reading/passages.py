"""Passages code selects from the WHOLE paper for an extractive reading, part by part.

Each passage is the paper's own sentences with the flow lines they lie on, so its anchor
is found by construction:

- method: sentences that state what the method does (cue phrases), method sections first;
- derivation: each display equation with the sentence that introduces it and the one that
  defines its symbols ('where x is ...'), symbols parsed by code;
- experiment: the datasets, baselines, metrics and ablations sentences (setup sections and
  table captions), with the names code finds in them;
- result: sentences reporting results with numbers (checked against the tables later);
- question sources: sentences about assumptions, limitations, threats and future work.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field

from papermind.domain import LineRef, Paper
from papermind.domain.reading import PointKind
from papermind.grounding.claims import METRICS, named_terms
from papermind.grounding.relatedness import content_keys
from papermind.grounding.text import numbers_in
from papermind.workflows.deep_reading.parts import Part, paper_parts

SKIPPED = {"references", "acknowledgements", "front_matter"}
_METHOD = re.compile(
    r"\b(?:we (?:propose|introduce|present|develop|design|formulate|define|adopt|train|"
    r"compute|model|apply|build|employ|extend|use|learn|optimi[sz]e|construct|derive)|"
    r"our (?:method|approach|model|framework|algorithm|system|technique|idea)|"
    r"the proposed|is (?:defined|computed|obtained|trained|optimi[sz]ed|given) (?:as|by)|"
    r"consists of|algorithm|objective|loss function|architecture)\b"
    r"|本文提出|我们提出|提出了|本文方法|所提|算法|模型|目标函数|定义为", re.IGNORECASE)
_RESULT = re.compile(
    r"\b(?:outperform\w*|improv\w*|achiev\w*|gain\w*|reduc\w*|increas\w*|decreas\w*|"
    r"better|worse|surpass\w*|higher|lower|accuracy|error|score\w*|results? (?:show|indicate)|"
    r"significant\w*|speed-?up|faster)\b|提高|提升|优于|降低|准确率|误差|结果表明|实验结果",
    re.IGNORECASE)
_ASPECTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("datasets", re.compile(r"\b(?:data ?sets?|benchmarks?|corpus|corpora|evaluate\w* on|"
                            r"experiments? on|collected|samples?)\b|数据集|语料", re.IGNORECASE)),
    ("baselines", re.compile(r"\b(?:baselines?|compare\w* (?:with|to|against)|"
                             r"state[- ]of[- ]the[- ]art|prior methods?)\b|基线|对比方法|比较",
                             re.IGNORECASE)),
    ("metrics", re.compile(r"\b(?:metrics?|measured? by|we report|evaluat\w+ (?:by|with|using)|"
                           + "|".join(map(re.escape, METRICS)) + r")\b", re.IGNORECASE)),
    ("ablations", re.compile(r"\b(?:ablat\w+|w/o|without (?:the|our)|remov\w+ (?:the|each)|"
                             r"contribution of each)\b|消融", re.IGNORECASE)),
)
_QUESTION = re.compile(
    r"\b(?:limitation\w*|limited|assum\w+|future work|we leave|beyond the scope|threats?|"
    r"caveat|do(?:es)? not (?:hold|apply|generali[sz]e|scale)|cannot|fails? (?:to|when)|"
    r"restrict\w*|open question|remains? unclear|sensitive to|depend\w* on)\b"
    r"|局限|不足|假设|未来工作|今后|有待", re.IGNORECASE)
_WHERE = re.compile(r"^\s*(?:where|here|in which|with)\b|\b(?:denotes?|stands? for|"
                    r"represents?)\b|^\s*其中|表示", re.IGNORECASE)
_SYMBOL = re.compile(r"(?:^|,|;|，|；|\band\b|\bwhere\b|其中)\s*([^\s,;，；]{1,12}?)\s*(?:\bis\b|"
                     r"\bare\b|\bdenotes?\b|\brepresents?\b|\bstands? for\b|表示|代表)\s*"
                     r"(?:the |a |an )?([^,;，；。]{2,60}?)(?=\s*(?:[,;，；。]|\.\s|\.?$|\band\b))")
_SECTION_BONUS = {"method": 2.0, "abstract": 1.0, "introduction": 0.5, "experiments": 1.5,
                  "results": 2.0, "conclusion": 1.0, "discussion": 1.0}


@dataclass(frozen=True)
class Sentence:
    """One sentence of the paper with where it is."""

    text: str
    lines: tuple[LineRef, ...]
    section: str
    section_kind: str
    order: int

    @property
    def page(self) -> int:
        return self.lines[0].page if self.lines else 0


@dataclass(frozen=True)
class Passage:
    """What code hands the model to explain: the paper's text and its lines."""

    kind: PointKind
    text: str
    lines: tuple[LineRef, ...]
    section: str
    label: str = ""
    symbols: tuple[str, ...] = ()
    lists: dict[str, list[str]] = field(default_factory=dict)


def sentences(parts: list[Part]) -> Iterator[tuple[Sentence, str]]:
    """(sentence, item kind) of every part code reads, in reading order."""
    order = 0
    for part in parts:
        if part.kind in SKIPPED:
            continue
        for item in part.items:
            for index, text in enumerate(item.sentences):
                lines = tuple(item.lines[index]) if index < len(item.lines) else ()
                order += 1
                if lines:
                    yield Sentence(" ".join(text.split()), lines, part.title, part.kind,
                                   order), item.kind


_CJK = re.compile(r"[\u3400-\u9fff]")


def _plain(text: str) -> bool:
    """A sentence of prose, neither a fragment nor a whole paragraph (Chinese by characters)."""
    cjk = len(_CJK.findall(text))
    if cjk > len(text) * 0.3:
        return 15 <= cjk <= 160
    words = text.split()
    prose = sum(w[:1].islower() and w.isalpha() for w in words)  # table rows are not prose
    return (8 <= len(words) <= 70 and sum(c.isalpha() for c in text) > len(text) * 0.6
            and prose >= len(words) * 0.4)


def _spread(scored: Sequence[tuple[float, Sentence]], limit: int) -> list[Sentence]:
    """The best ``limit`` sentences, one per section first, then one per page, in order."""
    ranked = [s for _, s in sorted(scored, key=lambda x: (-x[0], x[1].order))]
    chosen: list[Sentence] = []
    for key in (lambda s: s.section, lambda s: s.page, lambda s: s.order):
        for sentence in ranked:
            if len(chosen) >= limit:
                break
            if sentence not in chosen and key(sentence) not in {key(c) for c in chosen} \
                    and not any(_same_point(sentence, c) for c in chosen):
                chosen.append(sentence)
    return sorted(chosen, key=lambda s: s.order)


def _same_point(a: Sentence, b: Sentence) -> bool:
    """Two sentences saying much the same (an abstract's claim again in the introduction)."""
    ka, kb = set(content_keys(a.text)), set(content_keys(b.text))
    return bool(ka and kb) and len(ka & kb) / min(len(ka), len(kb)) >= 0.45


def _long_enough(text: str) -> bool:
    return len(text.split()) >= 5 or len(_CJK.findall(text)) >= 10


def method_passages(text: list[Sentence], limit: int) -> list[Passage]:
    scored = [(len(_METHOD.findall(s.text)) + _SECTION_BONUS.get(s.section_kind, 0)
               - (1.5 if s.section_kind in {"experiments", "results"} else 0), s)
              for s in text if _plain(s.text) and _METHOD.search(s.text)
              and s.section_kind not in {"related_work", "appendix"}]
    return [Passage("method", s.text, s.lines, s.section) for s in _spread(scored, limit)]


def result_passages(text: list[Sentence], limit: int) -> list[Passage]:
    scored = []
    for s in text:
        numbers = [n for n in numbers_in(s.text) if not re.fullmatch(r"(19|20)\d\d", n)]
        if not numbers or not _plain(s.text) or not _RESULT.search(s.text):
            continue
        if s.section_kind in {"related_work", "method", "introduction", "appendix"}:
            continue
        score = len(_RESULT.findall(s.text)) + 0.5 * len(numbers) + _SECTION_BONUS.get(
            s.section_kind, 0) + ("%" in s.text)
        scored.append((score, s))
    return [Passage("result", s.text, s.lines, s.section) for s in _spread(scored, limit)]


def experiment_passages(text: list[Sentence], captions: list[Sentence],
                        taken: Collection[str] = ()) -> list[Passage]:
    """One passage per aspect found (datasets, baselines, metrics, ablations), each a
    sentence no other passage took."""
    out: list[Passage] = []
    used: set[int] = {s.order for s in [*text, *captions] if s.text in taken}
    setup = {"experiments", "results", "method", "other", "discussion"}
    for aspect, cue in _ASPECTS:
        pool = [(len(cue.findall(s.text)) + (s.section_kind in setup) + 0.5 * bool(
            named_terms(s.text)), s) for s in [*text, *captions]
                if cue.search(s.text) and s.order not in used and _long_enough(s.text)
                and s.section_kind not in {"related_work", "abstract", "introduction"}]
        if not pool:
            continue
        best = _spread(pool, 1)[0]
        used.add(best.order)
        out.append(Passage("experiment", best.text, best.lines, best.section,
                           label=aspect, lists={aspect: _names(aspect, best.text)}))
    return out


def _names(aspect: str, text: str) -> list[str]:
    if aspect == "metrics":
        lowered = text.lower()
        return [m for m in METRICS if re.search(rf"(?<![\w-]){re.escape(m)}(?![\w-])", lowered)]
    if aspect == "ablations":
        return []
    metrics = set(METRICS)
    return [t for t in named_terms(text) if t.lower() not in metrics and not t.isdigit()][:6]


def derivation_passages(parts: list[Part], limit: int) -> list[Passage]:
    """Equations with their introducing and symbol-defining sentences."""
    found: list[tuple[float, int, Passage]] = []
    order = 0
    for part in parts:
        if part.kind in SKIPPED:
            continue
        for index, item in enumerate(part.items):
            order += 1
            if item.kind != "equation" or not item.lines or len(item.sentences[0]) < 3:
                continue
            before = _neighbour(part, index, -1)
            after = _neighbour(part, index, +1)
            where = after if after and _WHERE.search(after[0]) else None
            pieces = [p for p in (before, (item.sentences[0], item.lines[0]), where) if p]
            lines = tuple(dict.fromkeys(ref for _, refs in pieces for ref in refs))
            text = " ".join(f"[{item.label}] {t}" if t == item.sentences[0] else t
                            for t, _ in pieces)
            symbols = tuple(parse_symbols(where[0])) if where else ()
            score = (item.label != "Equation") + bool(where) + bool(before) + 0.5 * bool(symbols)
            found.append((score, order, Passage("derivation", text, lines, part.title,
                                                label=item.label, symbols=symbols)))
    best = sorted(found, key=lambda x: (-x[0], x[1]))[:limit]
    return [p for _, _, p in sorted(best, key=lambda x: x[1])]


def _neighbour(part: Part, index: int, step: int) -> tuple[str, list[LineRef]] | None:
    """The sentence next to item ``index`` on the side ``step`` (a text item's nearest)."""
    at = index + step
    if not 0 <= at < len(part.items) or part.items[at].kind != "text":
        return None
    item = part.items[at]
    if not item.sentences or not item.lines:
        return None
    pick = -1 if step < 0 else 0
    text = " ".join(item.sentences[pick].split())
    return (text, item.lines[pick]) if 3 <= len(text.split()) <= 80 else None


def parse_symbols(text: str) -> list[str]:
    """'symbol: meaning' pairs from a 'where x is ..., and y denotes ...' sentence."""
    out: dict[str, str] = {}
    for match in _SYMBOL.finditer(text):
        name, meaning = match.group(1).strip("() "), " ".join(match.group(2).split())
        if name and name.lower() not in {"it", "this", "that", "which", "there", "here"} \
                and len(name) <= 12 and meaning:
            out.setdefault(name, meaning)
    return [f"{k}: {v}" for k, v in out.items()][:6]


def question_sources(text: list[Sentence], limit: int) -> list[Sentence]:
    """Sentences about assumptions, limitations, threats and future work."""
    scored = [(len(_QUESTION.findall(s.text)) + (s.section_kind in {"conclusion",
                                                                     "discussion"}), s)
              for s in text if _plain(s.text) and _QUESTION.search(s.text)
              and s.section_kind not in {"related_work"}]
    return _spread(scored, limit)


@dataclass(frozen=True)
class Selection:
    """Everything an extractive reading works from."""

    passages: list[Passage]
    questions: list[Sentence]
    sections: dict[str, int]
    """Sentences read per section (all of them: the selection reads the whole paper)."""


def select(paper: Paper, *, per_part: int = 3, questions: int = 4) -> Selection:
    """The passages of every part, chosen from the whole paper."""
    parts = paper_parts(paper)
    text: list[Sentence] = []
    captions: list[Sentence] = []
    for sentence, kind in sentences(parts):
        (captions if kind == "caption" else text if kind == "text" else []).append(sentence)
    sections: dict[str, int] = {}
    for sentence in [*text, *captions]:
        sections[sentence.section] = sections.get(sentence.section, 0) + 1
    results = result_passages(text, per_part)
    passages = [*method_passages(text, per_part), *derivation_passages(parts, per_part),
                *experiment_passages(text, captions, {p.text for p in results}), *results]
    return Selection(passages, question_sources(text, questions), sections)
