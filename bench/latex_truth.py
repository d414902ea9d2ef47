"""Ground truth for reference grounding from a LaTeX source and its natbib ``.bbl``.

Each ``\\cite`` key becomes the citation a reader sees ('Ho et al., 2020' or 'Ho et al.
(2020)'); invented citations (real authors with a wrong year, unknown authors, altered or
unknown titles) are built by rule. Used by the reference benchmark and its tests.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

_BIBITEM = re.compile(r"\\bibitem\[(?P<label>(?:[^\[\]]|\[[^\]]*\])*)\]\{(?P<key>[^}]*)\}")
_CITE = re.compile(r"\\cite(?P<kind>[a-zA-Z]*)\*?(?:\[[^\]]*\])*\{(?P<keys>[^}]*)\}")
_ACCENT = re.compile(r"\\[`'^\"~=.uvHcdbtk]\s*\{?(\w)\}?")
INVENTED_NAMES = ("Zarkovic", "Okonkwo-Lindqvist", "Brandauer", "Haverkamp", "Quisenberry")
INVENTED_TITLES = (
    "Recursive spectral gating for calibrated neural sampling",
    "On the thermodynamics of adaptive curriculum tokenizers",
    "Sparse hyperbolic memories improve long-horizon planning",
)


@dataclass(frozen=True)
class BibItem:
    key: str
    short: str  # 'Ho et al.' / 'Kingma & Ba'
    year: str  # '2020' or '2020a'
    title: str

    def cited(self, narrative: bool) -> str:
        """How natbib prints it: 'Ho et al. (2020)' or 'Ho et al., 2020'."""
        return f"{self.short} ({self.year})" if narrative else f"{self.short}, {self.year}"


def plain_tex(text: str) -> str:
    """LaTeX markup reduced to text: accents, ~, \\&, \\emph{...} and braces."""
    text = _ACCENT.sub(r"\1", text).replace("~", " ").replace("\\&", "&")
    text = re.sub(r"\\(?:emph|textit|textbf|url|doi)\s*", "", text)
    text = re.sub(r"\\[a-zA-Z]+", " ", text).replace("{", "").replace("}", "")
    return " ".join(text.split())


def bib_items(bbl: str) -> list[BibItem]:
    """The entries of a natbib .bbl in order, with their printed label and title."""
    items = []
    matches = list(_BIBITEM.finditer(bbl))
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(bbl)
        body = bbl[m.end():end].split("\\end{thebibliography}")[0]
        blocks = [plain_tex(b) for b in body.split("\\newblock")]
        label = re.match(r"(?P<short>.*?)\((?P<year>[^)]*)\)", m.group("label"), re.DOTALL)
        if label is None:
            continue
        title = blocks[1].rstrip(".") if len(blocks) > 1 else ""
        items.append(BibItem(m.group("key"), plain_tex(label.group("short")),
                             plain_tex(label.group("year")).replace(" ", ""), title))
    return items


def cite_keys(tex: str) -> list[tuple[str, bool]]:
    """(key, narrative) for every key of every \\cite in the document body, in order."""
    body = re.sub(r"(?<!\\)%.*", "", tex.split("\\begin{document}", 1)[-1])
    found = []
    for m in _CITE.finditer(body):
        narrative = m.group("kind") == "t"
        found += [(k.strip(), narrative) for k in m.group("keys").split(",") if k.strip()]
    return found


def invented_citations(items: list[BibItem], rng: random.Random) -> list[str]:
    """Citations no entry of ``items`` supports (checked against the printed labels)."""
    taken = {(i.short.split()[0].lower(), i.year[:4]) for i in items}
    out: list[str] = []
    for item in items:
        first = item.short.split()[0]
        year = str(int(item.year[:4]) + rng.choice((-3, -2, 2, 3)))
        if (first.lower(), year) not in taken:
            out.append(f"{item.short}, {year}")
        out.append(f"{rng.choice(INVENTED_NAMES)} et al., {item.year[:4]}")
        words = item.title.split()
        if len(words) >= 4:
            other = rng.choice(INVENTED_TITLES).split()
            out.append(" ".join(words[:len(words) // 2] + other[len(other) // 2:]))
    out += list(INVENTED_TITLES)
    out += [f"{rng.choice(INVENTED_NAMES)}, A. and Lee, K. {t}. In NeurIPS, 2021."
            for t in INVENTED_TITLES]
    return out
