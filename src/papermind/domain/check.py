"""The pre-submission check: one finding type for every model-free check of a paper.

A finding points at the paper (``anchor``: page and lines) or, for a LaTeX project, at the
source an author edits (``source``: file and line); ``text`` is the paper's own text there.
"""

from __future__ import annotations

import hashlib
import re
from typing import Literal

from pydantic import Field

from papermind.domain.anchor import Anchor
from papermind.domain.base import Frozen
from papermind.domain.paper import Severity

Aspect = Literal["soundness", "citations", "presentation", "integrity", "anonymity", "venue"]
SEVERITY_RANK: dict[str, int] = {"low": 1, "medium": 2, "high": 3}
"""Order of severities (for --fail-on and sorting)."""


class SourceLine(Frozen):
    """A line of a source file (LaTeX project or .bib), 1-based; ``text`` as written."""

    file: str = Field(description="path relative to the project folder, e.g. 'sections/intro.tex'")
    line: int = Field(description="1-based line number in that file")
    text: str = Field(default="", description="the line as written")

    def label(self) -> str:
        return f"{self.file}:{self.line}"


class BibEntry(Frozen):
    """One entry of a .bib file: its key, type and fields as written, and where it starts."""

    key: str
    type: str = Field(description="entry type, lower case: 'article', 'inproceedings'...")
    fields: dict[str, str] = Field(default_factory=dict, description="field name (lower case) -> value")
    source: SourceLine


class LatexProject(Frozen):
    """A LaTeX project flattened from its main file through ``\\input`` / ``\\include``:
    every line keeps its file and line number; comments are blanked, line count unchanged."""

    main: str = Field(description="the main file, relative to the project folder")
    lines: list[SourceLine] = Field(default_factory=list, description="flattened, document order")
    bib: list[BibEntry] = Field(default_factory=list, description="entries of the .bib files used")
    warnings: list[str] = Field(default_factory=list, description="missing inputs and the like")


class CheckFinding(Frozen):
    """Something a model-free check found, with where it is and how to fix it."""

    kind: str = Field(description="the check's name, e.g. 'citation_without_entry'")
    severity: Severity
    aspect: Aspect = Field(description="the part of a review it belongs to")
    message: str = Field(description="one sentence a user can act on")
    text: str = Field(default="", description="the paper's text at the anchor")
    fix: str = Field(default="", description="a suggested fix, where one is obvious")
    anchor: Anchor | None = Field(default=None, description="page and lines in the paper")
    source: SourceLine | None = Field(default=None, description="file and line in a LaTeX project")
    comment: str = Field(default="", description="a checked one-sentence model comment; empty "
                                                 "when none was written")
    comment_note: str = Field(default="", description="why there is no comment although one "
                              "was sought (offline review): dropped by code, and why; not "
                              "given; or not asked for")

    def where(self) -> str:
        """'p. 3, l. 12', 'sections/intro.tex:14' or '' (a finding about the whole paper)."""
        if self.source is not None:
            return self.source.label()
        return self.anchor.label() if self.anchor is not None else ""

    def fingerprint(self) -> str:
        """The same for the same finding in a later draft (``finding_fingerprint``)."""
        return finding_fingerprint(self.kind, self.source.file if self.source else "",
                                   self.text, self.message)


def finding_fingerprint(kind: str, file: str, text: str, message: str) -> str:
    """A finding's identity across drafts: kind, file, the text there and the message with
    any page or line numbers left out (lines move as a draft grows)."""
    message = _POSITION.sub("", message)
    key = "\x1f".join([kind, file, " ".join(text.lower().split()), " ".join(message.split())])
    return hashlib.sha256(key.encode()).hexdigest()[:32]


_POSITION = re.compile(r"\b[pl]\.\s*\d+(?:\s*[-–]\s*\d+)?|:\d+\b")
"""'p. 3', 'l. 12-14', ':14' in a message: where, not what."""


class CheckReport(Frozen):
    """Every finding of one check run, most severe first, and how it was run."""

    paper_id: str = ""
    title: str = ""
    source_name: str = ""
    venue: str | None = None
    anonymous: bool = False
    findings: list[CheckFinding] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list, description="what was not checked and why")

    def counts(self) -> dict[str, int]:
        """severity -> number of findings."""
        out = {"high": 0, "medium": 0, "low": 0}
        for finding in self.findings:
            out[finding.severity] += 1
        return out

    def fails(self, level: str) -> bool:
        """Whether any finding is at ``level`` or above ('none' never fails)."""
        floor = SEVERITY_RANK.get(level)
        return floor is not None and any(SEVERITY_RANK[f.severity] >= floor for f in self.findings)
