"""Related work for a reviewer (online only): the block appended to its view of the paper.

The works come from the scholarly sources through ``ReviewContext.related_work``; they are
listed with ids R1, R2... (the order of ``ReviewReport.related_work``), each marked when the
paper's bibliography already cites it, and fenced as untrusted data.
"""

from __future__ import annotations

import re
from pathlib import Path

from papermind.domain import Paper
from papermind.domain.scholar import FoundWork
from papermind.llm import PromptTemplate, fence_untrusted

PROMPT = PromptTemplate.load(Path(__file__).parent / "prompts" / "fragments" / "related_work.md", {"works"})
ABSTRACT_CHARS = 500


def related_id(n: int) -> str:
    """'R1' for the first related work."""
    return f"R{n}"


def related_block(works: list[FoundWork], paper: Paper) -> str:
    """The instructions and the fenced list; empty when there is nothing (offline)."""
    if not works:
        return ""
    cited = {_key(r.title or r.raw) for r in paper.references}
    raw = " ".join(_key(r.raw) for r in paper.references)
    lines = []
    for n, work in enumerate(works, 1):
        mark = " (cited by the paper)" if _key(work.title) in cited or (
            len(_key(work.title)) > 20 and _key(work.title) in raw) else ""
        authors = ", ".join(work.authors[:3]) + (" et al." if len(work.authors) > 3 else "")
        head = "; ".join(p for p in (authors, str(work.year or ""), work.venue or "",
                                     f"doi:{work.doi}" if work.doi else "") if p)
        abstract = (work.abstract or "")[:ABSTRACT_CHARS]
        lines.append(f"[{related_id(n)}] {work.title}{mark}. {head}."
                     + (f"\nAbstract: {abstract}" if abstract else ""))
    text = fence_untrusted("\n".join(lines), "RELATED WORK")
    return "\n\n" + str(PROMPT.render(works=text)[-1].content)


def _key(title: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", title.lower()).split())
