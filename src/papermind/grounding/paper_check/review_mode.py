"""Whether a LaTeX project compiles in its venue's anonymous (review) mode, read from the
style's options: a style that prints 'Anonymous authors' hides the \\author block, so the
block is no anonymity finding there. One row per venue style (``STYLES``); a new venue is
one row."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from papermind.grounding.paper_check.spots import Spot

_LOADS = re.compile(r"\\(?:usepackage|documentclass|RequirePackage)\s*(?:\[([^\]]*)\])?\s*\{([^}]*)\}")
_COMMENT = re.compile(r"(?<!\\)%.*$")
_FINAL_COPY = re.compile(r"\\\w*finalcopy\b")
_AUTHOR = re.compile(r"\\author\s*(?:\[[^\]]*\])?\{")


@dataclass(frozen=True)
class Loaded:
    """A style the project loads: its name, its options and the whole (uncommented) source."""

    name: str
    options: frozenset[str]
    source: str


@dataclass(frozen=True)
class Style:
    """One venue style: which package names it, whether a load of it is anonymous, and how
    to make the camera-ready (or submission) version."""

    venue: str
    package: re.Pattern[str]
    anonymous: Callable[[Loaded], bool]
    final_by: str
    """What makes it print the authors."""
    needs_option: str | None = None
    """The row applies only where this option is given (a class option such as 'anonymous')."""
    hides: tuple[str, ...] = ()
    """Environments the style leaves out in review mode (NeurIPS: 'ack')."""


def _final_copy(loaded: Loaded) -> bool:
    return bool(_FINAL_COPY.search(loaded.source))


def _unless(*options: str) -> Callable[[Loaded], bool]:
    """Anonymous unless one of ``options`` is given (and no \\...finalcopy)."""
    return lambda x: not (x.options & set(options)) and not _final_copy(x)


def _acl(loaded: Loaded) -> bool:
    """acl.sty (2021 on): anonymous with [review] only; acl20xx.sty: unless \\aclfinalcopy."""
    if "review" in loaded.options or "anonymous" in loaded.options:
        return True
    return bool(re.search(r"\d{4}", loaded.name)) and not _final_copy(loaded) and \
        not loaded.options & {"final", "preprint"}


STYLES: tuple[Style, ...] = (
    Style("ICLR", re.compile(r"^iclr\d{4}_conference$"), lambda x: not _final_copy(x),
          "\\iclrfinalcopy"),
    Style("NeurIPS", re.compile(r"^(?:neurips|nips)_?\d{4}$"), _unless("final", "preprint"),
          "the [final] or [preprint] option", hides=("ack",)),
    Style("ICML", re.compile(r"^icml\d{4}$"), _unless("accepted"), "the [accepted] option"),
    Style("TMLR", re.compile(r"^tmlr$"), _unless("accepted", "preprint"),
          "the [accepted] or [preprint] option"),
    Style("ACL", re.compile(r"^(?:acl|naacl|eacl|emnlp|coling|aacl)[\w-]*$"), _acl,
          "[final] in place of [review], or \\aclfinalcopy in older styles"),
    Style("CVPR", re.compile(r"^(?:cvpr|iccv|eccv|wacv)\w*$"),
          lambda x: "review" in x.options or not (x.options & {"final", "pagenumbers"})
          and not _final_copy(x), "the [final] option, or \\cvprfinalcopy in older styles"),
    Style("AAAI", re.compile(r"^aaai\d*$"),
          lambda x: bool(x.options & {"submission", "anonymous"}), "no [submission] option"),
    Style("document class", re.compile(r"."), lambda x: True, "no [anonymous] option",
          needs_option="anonymous"),
)
"""Venue styles and when they print 'Anonymous authors' instead of the \\author block."""


@dataclass(frozen=True)
class ReviewMode:
    """The venue style a project loads and whether it hides the authors."""

    venue: str
    anonymous: bool
    final_by: str
    hides: tuple[str, ...] = ()

    def hidden(self, spots: Sequence[Spot]) -> set[tuple[str | None, int]]:
        """(file, line) of the lines review mode leaves out of the PDF: the \\author block
        (with its \\thanks) and the environments the style hides."""
        if not self.anonymous:
            return set()
        out: set[tuple[str | None, int]] = set()
        until: str | None = None  # what ends the hidden part: the block's brace, an \end
        depth = 0
        for spot in spots:
            text = _COMMENT.sub("", spot.text)
            if until is None and _AUTHOR.search(text):
                until, depth = "}", 0
            elif until is None:
                env = next((e for e in self.hides if f"\\begin{{{e}}}" in text), None)
                until = f"\\end{{{env}}}" if env else None
            if until is None:
                continue
            out.add((spot.file, spot.line))
            depth += text.count("{") - text.count("}")
            if (until == "}" and depth <= 0) or (until != "}" and until in text):
                until = None
        return out

    def note(self) -> str:
        if self.anonymous:
            return (f"the {self.venue} style prints 'Anonymous authors' in place of the "
                    f"\\author block (until {self.final_by})")
        return f"the {self.venue} style prints the \\author block ({self.final_by})"


def review_mode(spots: Sequence[Spot]) -> ReviewMode | None:
    """The review mode of the first venue style the project loads (None: none known)."""
    source = "\n".join(_COMMENT.sub("", s.text) for s in spots)
    for match in _LOADS.finditer(source):
        options = frozenset(o.strip() for o in (match.group(1) or "").split(",") if o.strip())
        for name in (n.strip() for n in match.group(2).split(",")):
            loaded = Loaded(name, options, source)
            style = next((s for s in STYLES if s.package.search(name)
                          and (s.needs_option is None or s.needs_option in options)), None)
            if style is not None:
                return ReviewMode(style.venue, style.anonymous(loaded), style.final_by,
                                  style.hides)
    return None
