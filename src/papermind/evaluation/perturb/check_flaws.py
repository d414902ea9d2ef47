"""Flaws the pre-submission check looks for, planted like the others (perturb.flaws):

- ``missing_figure``     a 'Figure N' / 'Fig. N' mention pointed at a figure the paper lacks
- ``self_citation``      a sentence naming a cited work as the authors' own (double-blind)
- ``duplicate_entry``    a bibliography entry printed a second time, right after itself
"""

from __future__ import annotations

import random
import re

from papermind.domain import Line, Paper
from papermind.evaluation.perturb.doc import Doc, Site, body_lines, free, sentence_lines

_FIGURE_MENTION = re.compile(r"\b(Figure|Fig\.)\s*(\d+)")
SELF_CITATIONS = ("In our previous work {c}, we showed a closely related result.",
                  "We previously showed {c} that this effect holds.",
                  "As we showed in our earlier paper {c}, this is expected.",
                  "This extends our prior work {c} to the general case.")


def missing_figure(doc: Doc, paper: Paper, rng: random.Random,
                   used: set[tuple[int, int]]) -> Site | None:
    figures = {c.label for c in paper.captions if c.kind == "figure" and c.label}
    body = body_lines(paper)
    lines = [ln for ln in paper.lines() if (ln.page, ln.n) in body
             and (m := _FIGURE_MENTION.search(ln.text)) and m.group(2) in figures]
    missing = str(max((int(k) for k in figures if k.isdigit()), default=0) + 7)

    def point_elsewhere(line: Line) -> tuple[str, str] | None:
        if (match := _FIGURE_MENTION.search(line.text)) is None:
            return None
        return (line.text[:match.start(2)] + missing + line.text[match.end(2):],
                f"{match.group(0)} -> {match.group(1)} {missing}")

    return doc.rewrite_one(lines, rng, used, point_elsewhere)


def self_citation(doc: Doc, paper: Paper, rng: random.Random,
                  used: set[tuple[int, int]]) -> Site | None:
    refs = [r for r in paper.references if r.year and r.authors]
    if not refs:
        return None
    ref = rng.choice(refs)
    numeric = ref.key.isdigit()
    surname = ref.authors[0].split(",")[0].split()[-1] if "," in ref.authors[0] else \
        ref.authors[0].split()[-1]
    cited = f"[{ref.key}]" if numeric else f"({surname} et al., {ref.year})"

    def add_sentence(line: Line) -> tuple[str, str]:
        sentence = rng.choice(SELF_CITATIONS).format(c=cited)
        return f"{line.text.rstrip()} {sentence}", f"'{sentence}' names {cited} as the authors' own work"

    return doc.rewrite_one(sentence_lines(paper), rng, used, add_sentence)


def duplicate_entry(doc: Doc, paper: Paper, rng: random.Random,
                    used: set[tuple[int, int]]) -> Site | None:
    refs = [r for r in paper.references if r.page and r.line and r.year and len(r.raw) >= 40
            and "|" not in r.raw]
    ordered = sorted(paper.references, key=lambda r: (r.page or 0, r.line or 0))
    for ref in rng.sample(refs, len(refs)):
        page, first = ref.page or 0, ref.line or 0
        after = next((r for r in ordered if (r.page or 0, r.line or 0) > (page, first)), None)
        if after is None or after.page != page or after.line is None:
            continue
        last = after.line - 1
        while last > first and not doc.line(page, last).strip():
            last -= 1
        if not free(used, page, last):
            continue
        blank = not doc.line(page, last + 1).strip() if last + 1 < after.line else False
        doc.insert_after(page, last, ("\n" if blank else "") + ref.raw)
        used.add((page, last + 1))
        return "", f"entry {ref.index} printed twice"
    return None
