"""The lines a check reads, whatever the input: a parsed paper's numbered lines (page, line)
or a LaTeX project's source lines (file, line). A check says what it found at a Spot and
``finding`` turns that into the one CheckFinding type with the right kind of anchor."""

from __future__ import annotations

from dataclasses import dataclass

from papermind.domain.anchor import Anchor
from papermind.domain.check import Aspect, CheckFinding, LatexProject, SourceLine
from papermind.domain.paper import Paper, Severity


@dataclass(frozen=True)
class Spot:
    """One line to read: its text and where it is (page and line, or file and line)."""

    text: str
    page: int = 0
    line: int = 0
    file: str | None = None
    paper_id: str = ""

    def below(self, text: str) -> Spot:
        """The same place with other text (a sentence cut from the line)."""
        return Spot(text, self.page, self.line, self.file, self.paper_id)


def paper_spots(paper: Paper) -> list[Spot]:
    """Every flow line of a parsed paper, in reading order."""
    return [Spot(ln.text, ln.page, ln.n, None, paper.id) for ln in paper.lines()]


def source_spots(project: LatexProject) -> list[Spot]:
    """Every line of a flattened LaTeX project, in document order."""
    return [Spot(ln.text, 0, ln.line, ln.file) for ln in project.lines]


def finding(kind: str, severity: Severity, aspect: Aspect, message: str, spot: Spot | None,
            *, fix: str = "", text: str | None = None, line_end: int | None = None) -> CheckFinding:
    """A CheckFinding at ``spot`` (None: about the whole paper)."""
    anchor, source = None, None
    if spot is not None and spot.file is not None:
        source = SourceLine(file=spot.file, line=spot.line, text=spot.text)
    elif spot is not None:
        anchor = Anchor(paper_id=spot.paper_id, page=spot.page, line_start=spot.line,
                        line_end=max(spot.line, line_end or spot.line))
    shown = spot.text if text is None and spot is not None else (text or "")
    return CheckFinding(kind=kind, severity=severity, aspect=aspect, message=message,
                        text=" ".join(shown.split()), fix=fix, anchor=anchor, source=source)


def at_line(paper: Paper, page: int, line: int) -> Spot:
    """The Spot of the paper's line ``line`` on ``page`` (text empty when out of range)."""
    try:
        text = paper.page(page).line(line).text
    except IndexError:
        text = ""
    return Spot(text, page, line, None, paper.id)
