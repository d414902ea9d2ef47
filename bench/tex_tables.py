"""Gold tables from LaTeX ``tabular`` environments, and cell matching by text (bench, tests).

``\\multicolumn``/``\\multirow`` keep their text once, rules (``\\toprule``...) are dropped, and
cell text is compared in a folded form (case, spaces and math markup ignored; ``$\\pm$`` = ±).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence

_TABULAR = re.compile(r"\\begin\{tabular\}\s*(?:\[[^\]]*\])?\s*\{(?:[^{}]|\{[^{}]*\})*\}(.*?)\\end\{tabular\}",
                      re.DOTALL)
_RULES = re.compile(r"\\(toprule|midrule|bottomrule|hline|cline\{[^}]*\}|cmidrule(\([^)]*\))?\{[^}]*\})")
_SPAN = re.compile(r"\\multi(?:column|row)\{[^}]*\}\{[^}]*\}\{((?:[^{}]|\{[^{}]*\})*)\}")
_GREEK = {name: chr(code) for name, code in [
    ("alpha", 0x3B1), ("beta", 0x3B2), ("gamma", 0x3B3), ("delta", 0x3B4), ("epsilon", 0x3B5),
    ("eta", 0x3B7), ("theta", 0x3B8), ("lambda", 0x3BB), ("mu", 0x3BC), ("sigma", 0x3C3),
    ("tau", 0x3C4), ("phi", 0x3C6), ("omega", 0x3C9)]}


def _cell_text(tex: str) -> str:
    tex = _SPAN.sub(r"\1", tex)
    tex = tex.replace("\\pm", "±").replace("\\%", "%").replace("\\_", "_").replace("\\&", "&")
    tex = re.sub(r"\\(" + "|".join(_GREEK) + r")(?![a-zA-Z])", lambda m: _GREEK[m.group(1)], tex)
    tex = re.sub(r"\\(textbf|textit|emph|mathbf|mathrm|text|underline)\s*", "", tex)
    tex = re.sub(r"\\[a-zA-Z]+\*?", " ", tex)
    return " ".join(tex.replace("$", "").replace("{", "").replace("}", "").replace("~", " ").split())


def tex_tables(tex: str) -> list[list[list[str]]]:
    """Every tabular of a LaTeX body as rows of non-empty cell texts, in source order."""
    body = re.sub(r"(?<!\\)%.*", "", tex.split("\\begin{document}", 1)[-1])
    tables = []
    for match in _TABULAR.finditer(body):
        rows = []
        for raw in re.split(r"\\\\", _RULES.sub(" ", match.group(1))):
            cells = [_cell_text(c) for c in re.split(r"(?<!\\)&", raw)]
            if any(cells):
                rows.append([c for c in cells if c])
        tables.append(rows)
    return tables


def fold_cell(text: str) -> str:
    """Cell text for matching: NFKC, case-folded, no spaces or math sub/superscript marks."""
    text = unicodedata.normalize("NFKC", text).casefold().replace("−", "-")
    return re.sub(r"[\s_^{}$]", "", text)


def cell_matches(found: Sequence[Sequence[str]], gold: Sequence[Sequence[str]]) -> tuple[int, int, int]:
    """(matched, found cells, gold cells) of one table, cells compared as folded multisets."""
    got = Counter(fold_cell(c) for row in found for c in row if c.strip())
    want = Counter(fold_cell(c) for row in gold for c in row if c.strip())
    return sum((got & want).values()), sum(got.values()), sum(want.values())
