"""Gold truth from LaTeX sources for the ingest benchmarks (bench/ingest_quality.py): sections,
citations, titles and reference strings, and how parsed papers score against them.

Each scorer takes parsed papers (or strings) plus the gold files and returns plain numbers,
so thresholds live with the callers.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from rapidfuzz import fuzz

from papermind.domain.paper import Paper
from papermind.ingest.outline import fragment_title
from papermind.ingest.references import parse_entry


def fold(text: str) -> str:
    """Case-, whitespace- and compatibility-insensitive form for exact title comparison."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def _alnum(text: str) -> str:
    return re.sub(r"[^0-9a-z]+", "", unicodedata.normalize("NFKD", text).casefold())


def gold_titles(science_parse: Path) -> dict[Path, str]:
    """PDF path -> gold title from ``*.extraction.json`` and ``groundTruth.json``."""
    gold: dict[Path, str] = {}
    for path in sorted(science_parse.glob("*.extraction.json")):
        for kind, value in json.loads(path.read_text(encoding="utf-8-sig")):
            if kind == "title":
                gold[path.with_name(path.name.replace(".extraction.json", ".pdf"))] = value
    truth = science_parse / "groundTruth.json"
    for line in truth.read_text(encoding="utf-8-sig").splitlines() if truth.exists() else []:
        if line.strip():
            item = json.loads(line)
            pdf = science_parse / f"{item['id']}.pdf"
            if pdf.exists() and item.get("title"):
                gold[pdf] = item["title"]
    return gold


_TEX_HEADING = re.compile(r"\\(section|subsection)\*?\s*\{((?:[^{}]|\{[^{}]*\})*)\}")


def _strip_tex(text: str) -> str:
    text = re.sub(r"\\[a-zA-Z]+\*?\s*(\[[^\]]*\])?", " ", text)
    return " ".join(text.replace("{", "").replace("}", "").replace("~", " ").split())


def tex_headings(tex: str) -> list[tuple[str, int]]:
    """(title, level) for every \\section / \\subsection of a LaTeX body."""
    body = tex.split("\\begin{document}", 1)[-1]
    body = re.sub(r"(?<!\\)%.*", "", body)
    return [(_strip_tex(m.group(2)), 1 if m.group(1) == "section" else 2)
            for m in _TEX_HEADING.finditer(body)]


@dataclass(slots=True)
class SectionScore:
    gold: int
    found: int
    predicted: int
    spurious: int


def score_sections(paper: Paper, gold: list[tuple[str, int]]) -> SectionScore:
    """Gold headings found with the right level, and predicted headings that match none."""
    remaining = Counter((_alnum(t), lvl) for t, lvl in gold)
    found = 0
    spurious = 0
    predicted = [s for s in paper.sections if s.kind not in ("abstract", "references")]
    for section in predicted:
        key = (_alnum(section.title), section.level)
        if remaining[key] > 0:
            remaining[key] -= 1
            found += 1
        else:
            spurious += 1
    return SectionScore(len(gold), found, len(predicted), spurious)


def bbl_entries(bbl: str) -> list[tuple[str, str]]:
    """(key, text) of every \\bibitem in a .bbl file, in order."""
    parts = re.split(r"\\bibitem(?:\[(?:[^\[\]]|\[[^\]]*\])*\])?\{([^}]*)\}", bbl)
    return [(parts[i], _strip_tex(parts[i + 1].split("\\end{thebibliography}")[0]))
            for i in range(1, len(parts) - 1, 2)]


def tex_citations(tex: str) -> Counter[str]:
    """How often each bib key is cited in the LaTeX body."""
    body = tex.split("\\begin{document}", 1)[-1]
    body = re.sub(r"(?<!\\)%.*", "", body)
    counts: Counter[str] = Counter()
    for match in re.finditer(r"\\cite[a-zA-Z]*\*?(?:\[[^\]]*\])*\{([^}]*)\}", body):
        counts.update(k.strip() for k in match.group(1).split(",") if k.strip())
    return counts


def score_citations(paper: Paper, entries: list[tuple[str, str]], cited: Counter[str]) -> tuple[int, int]:
    """(correctly resolved \\cite occurrences, all occurrences): refs aligned to .bbl by text."""
    to_bib: dict[str, str] = {}
    for ref in paper.references:
        best = max(entries, key=lambda e: fuzz.token_set_ratio(ref.raw, e[1]), default=None)
        if best and fuzz.token_set_ratio(ref.raw, best[1]) >= 70:
            to_bib[ref.key] = best[0]
    resolved: Counter[str] = Counter()
    for citation in paper.citations:
        resolved.update(to_bib[k] for k in citation.reference_keys if k in to_bib)
    correct = sum(min(n, resolved[key]) for key, n in cited.items())
    return correct, sum(cited.values())


_TEX_TITLE = re.compile(r"\\title\{((?:[^{}]|\{[^{}]*\})*)\}")


def tex_title(tex: str) -> str:
    """The ``\\title{}`` of a LaTeX source, markup removed."""
    match = _TEX_TITLE.search(tex)
    return _strip_tex(match.group(1).replace("\\\\", " ")) if match else ""


def tex_equation_count(tex: str) -> int:
    """Numbered display equations of a LaTeX body (``equation`` environments, not starred)."""
    body = re.sub(r"(?<!\\)%.*", "", tex.split("\\begin{document}", 1)[-1])
    return len(re.findall(r"\\begin\{equation\}", body))


def fragment_sections(paper: Paper) -> list[str]:
    """Section titles that read as cut pieces of sentences."""
    return [s.title for s in paper.sections if s.number and fragment_title(s.title)]


def pages_with_lines(paper: Paper) -> tuple[int, int]:
    return sum(1 for p in paper.pages if p.lines), len(paper.pages)


_TAG = re.compile(r"<(\w+)>(.*?)</\1>", re.DOTALL)


def tagged_references(path: Path) -> Iterable[tuple[str, str, str]]:
    """(raw string, gold authors, gold title) from a CORA-style tagged file."""
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        tags = _TAG.findall(line)
        if not tags:
            continue
        raw = " ".join(" ".join(value.split()) for _, value in tags)
        authors = " ".join(v for k, v in tags if k == "author")
        title = " ".join(v for k, v in tags if k == "title")
        yield raw, authors, title


def _name_tokens(text: str) -> list[str]:
    words = re.findall(r"[^\W\d_]+", unicodedata.normalize("NFKC", text).casefold())
    return [w for w in words if w not in {"and", "et", "al", "eds", "ed", "editors"}]


def score_reference_strings(path: Path) -> tuple[float, float, int]:
    """(author-list accuracy, title accuracy, n) of ``parse_entry`` on tagged strings."""
    n = authors_ok = titles_ok = 0
    for raw, gold_authors, gold_title in tagged_references(path):
        parsed = parse_entry(raw)
        n += 1
        authors_ok += _name_tokens(" ".join(parsed.authors)) == _name_tokens(gold_authors)
        titles_ok += bool(gold_title) and _alnum(parsed.title or "") == _alnum(gold_title)
    return (authors_ok / n if n else 0.0), (titles_ok / n if n else 0.0), n


def fold_title(text: str) -> str:
    """Case and punctuation folded: the form held-out titles are compared in."""
    words = " ".join(re.findall(r"\w+", unicodedata.normalize("NFKC", text).casefold()))
    return re.sub(r"(?<=[\u3400-\u9fff]) | (?=[\u3400-\u9fff])", "", words)  # CJK: no spaces


_MARK = re.compile(r"[\d♠♢♡♣♤♥♦♧∗*†‡§¶˚◦☯♯♮⋆★☆✉⁰¹²³⁴⁵⁶⁷⁸⁹\u0370-\u03ff]")


def marked_authors(authors: Iterable[str]) -> list[str]:
    """Author names that still carry an affiliation marker (a digit, symbol or Greek letter)."""
    return [a for a in authors if _MARK.search(a)]


_SECTION_WORDS = {"abstract", "introduction", "related work", "background", "references",
                  "conclusion", "conclusions", "method", "methods", "results", "experiments",
                  "acknowledgements", "acknowledgments", "appendix", "discussion", "keywords"}


def heading_authors(authors: Iterable[str]) -> list[str]:
    """Authors that are headings: Markdown '#' marks, a section name, a numbered heading."""
    return [a for a in authors if a.lstrip().startswith("#") or a.lower().strip(" :.") in
            _SECTION_WORDS or re.match(r"^\d+(\.\d+)*\.?\s+[A-Z]", a)]


def gold_authors(science_parse: Path) -> dict[Path, list[str]]:
    """PDF path -> gold author names ('First Last') from ``groundTruth.json``."""
    gold: dict[Path, list[str]] = {}
    truth = science_parse / "groundTruth.json"
    for line in truth.read_text(encoding="utf-8-sig").splitlines() if truth.exists() else []:
        item = json.loads(line) if line.strip() else {}
        pdf = science_parse / f"{item.get('id')}.pdf"
        if pdf.exists() and item.get("authors"):
            gold[pdf] = [" ".join(reversed([p.strip() for p in name.split(",", 1)]))
                         for name in item["authors"]]
    return gold
