"""Gold facts of the Chinese sample papers (../shared/data/pdfs/zh) read from their LaTeX.

Sections: every ``\\chapter``/``\\section``/``\\subsection``/``\\subsubsection`` (starred
too) outside comments, with its level (chapters 1 and sections 2 where the document has
chapters). References: uncommented ``\\bibitem``s, or for BibTeX documents the keys cited
(``\\nocite{*}`` would mean all). Titles are given by hand with the .tex line they come
from: the templates define them through class-specific macros.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

TITLES = {  # file stem -> title as typeset (source line)
    "thuthesis_example_v7.5.0": "清华大学学位论文 LaTeX 模板使用示例文档 v7.5.0",  # l. 42
    "sysuthesis_v2_example": "中山大学硕士毕业论文 LaTeX 模板（试用）",  # l. 15 \ctitle
    "cjc_jisuanji_xuebao_sample": "题目（中英文题目一致)字体为2号黑体(全文除特别声明外， "
                                  "外文统一用Times New Roman)",  # l. 83
    "aas_zidonghua_xuebao_sample": "《自动化学报》稿件加工样本",  # l. 35 \cntitle
    "cjaps_yingyong_gailv_tongji_sample": "论文题目",  # l. 40 \newcommand{\cntitle}
}
_LEVELS = {"chapter": 0, "section": 1, "subsection": 2, "subsubsection": 3}
_HEAD = re.compile(r"\\(chapter|section|subsection|subsubsection)\*?\s*(?:\[[^\]]*\])?\s*\{")
_CITE = re.compile(r"\\[a-z]*cite[a-z]*\*?(?:\[[^\]]*\])*\{([^}]*)\}")


@dataclass(frozen=True)
class GoldSection:
    title: str
    level: int


def fold(text: str) -> str:
    """Comparison form: NFKC, no whitespace, casefolded ('LATEX' = 'LaTeX')."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text)).casefold()


def _uncommented(tex: str) -> str:
    return "\n".join(re.sub(r"(?<!\\)%.*", "", line) for line in tex.splitlines())


def _argument(tex: str, start: int) -> str:
    depth, i = 1, start
    while i < len(tex) and depth:
        depth += {"{": 1, "}": -1}.get(tex[i], 0)
        i += 1
    return tex[start:i - 1]


def detex(text: str) -> str:
    """Text of a heading argument: macros dropped, \\LaTeX kept as a word."""
    text = re.sub(r"\\(La)?TeX\b\\?\s?(\{\})?", lambda m: (m[1] or "") + "TeX", text)
    text = re.sub(r"\\(verb|texttt)\|([^|]*)\|", r"\2", text)
    text = re.sub(r"\$[^$]*\$", "", text)
    text = re.sub(r"\\[a-zA-Z]+\s*", "", text).replace("~", " ")
    return re.sub(r"[{}]", "", text).strip()


def sections(tex_path: Path) -> list[GoldSection]:
    tex = _uncommented(tex_path.read_text(encoding="utf-8"))
    offset = 1 if "\\chapter" in tex else 0
    found = []
    for match in _HEAD.finditer(tex):
        title = detex(_argument(tex, match.end()))
        if title:
            found.append(GoldSection(title, _LEVELS[match[1]] + offset))
    return found


def reference_count(tex_path: Path) -> int:
    tex = _uncommented(tex_path.read_text(encoding="utf-8"))
    items = len(re.findall(r"\\bibitem\b", tex))
    if items:
        return items
    keys = {k.strip() for group in _CITE.findall(tex) for k in group.split(",") if k.strip()}
    return len(keys)
