"""A LaTeX project as the author edits it: the main file flattened through ``\\input`` and
``\\include`` (every line keeps its file and line number, comments blanked) and the entries
of the ``.bib`` files it names, each with the line it starts on.

A project is input, possibly hostile: every ``\\input``, ``\\include`` and bibliography is
read only when its real path (links resolved) lies inside the project folder; reading stops
at ``ProjectBounds`` (files read, include depth, bytes in all), each stop a warning; a main
file past the byte cap is refused; the .bib parser is linear in the file's length.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from papermind.domain.check import BibEntry, LatexProject, SourceLine
from papermind.errors import InputError

MAX_DEPTH = 12
_INPUT = re.compile(r"\\(?:input|include|subfile)\s*\{([^}]{1,500})\}")
_BIBS = re.compile(r"\\(?:bibliography|addbibresource)\s*(?:\[[^\]]{0,200}\])?\{([^}]{1,2000})\}")
_COMMENT = re.compile(r"(?<!\\)%.*$")
_ENTRY = re.compile(r"@\s{0,20}(\w{1,40})\s{0,20}[{(]\s{0,50}([^,\s]{1,300})\s{0,50},")
_FIELD = re.compile(r"(\w[\w-]{0,60})\s*=\s*")
_SNIFF_BYTES = 64 * 1024
_MAX_ENTRY_CHARS = 200_000


@dataclass(frozen=True)
class ProjectBounds:
    """How much of a project is read at most."""

    max_files: int = 200
    max_depth: int = MAX_DEPTH
    max_bytes: int = 20 * 2**20
    max_lines: int = 200_000
    max_entries: int = 20_000


@dataclass
class _Reading:
    root: Path
    bounds: ProjectBounds
    lines: list[SourceLine] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    files: int = 0
    bytes: int = 0
    stopped: bool = False

    def inside(self, path: Path) -> Path | None:
        """The real path of ``path`` when it lies in the project folder, else None."""
        try:
            real = path.resolve()
        except (OSError, RuntimeError):
            return None
        return real if real.is_relative_to(self.root) else None

    def read(self, path: Path, shown: str) -> str | None:
        """The text of a project file within the bounds (None, with a warning, past them)."""
        size = path.stat().st_size
        if self.files >= self.bounds.max_files or self.bytes + size > self.bounds.max_bytes:
            if not self.stopped:
                self.warnings.append(
                    f"{shown} and what follows not read: a project is read up to "
                    f"{self.bounds.max_files} files and {self.bounds.max_bytes // 2**20} MB")
            self.stopped = True
            return None
        self.files, self.bytes = self.files + 1, self.bytes + size
        return path.read_text(encoding="utf-8", errors="replace")


def main_file(path: Path) -> Path:
    """The main .tex of a project folder (main.tex, else the one with \\documentclass)."""
    if path.is_file():
        return path
    if (path / "main.tex").is_file():
        return path / "main.tex"
    for candidate in sorted(path.glob("*.tex")):
        with candidate.open("rb") as handle:
            if b"\\documentclass" in handle.read(_SNIFF_BYTES):
                return candidate
    raise InputError(f"no main .tex in {path} (expected main.tex or a file with \\documentclass)")


def read_project(path: Path, bounds: ProjectBounds | None = None) -> LatexProject:
    """The project whose main file is ``path`` (or the main file of the folder ``path``)."""
    main = main_file(path)
    reading = _Reading(main.parent.resolve(), bounds or ProjectBounds())
    if main.stat().st_size > reading.bounds.max_bytes:
        raise InputError(f"{main.name} is larger than {reading.bounds.max_bytes // 2**20} MB: "
                         "not a LaTeX source to check")
    _flatten(main.resolve(), reading, set(), 0)
    bib_names = [n.strip() for ln in reading.lines for m in _BIBS.finditer(ln.text)
                 for n in m.group(1).split(",")]
    root = reading.root
    bib_files = [root / (n if n.endswith(".bib") else n + ".bib") for n in bib_names if n]
    entries: list[BibEntry] = []
    for bib in bib_files or sorted(root.glob("*.bib")):
        shown = _rel(bib, root)
        real = reading.inside(bib)
        if real is None:
            reading.warnings.append(f"bibliography {shown} is outside the project; not read")
        elif not real.is_file():
            reading.warnings.append(f"bibliography {shown} not found")
        elif (text := reading.read(real, shown)) is not None:
            entries += read_bib(text, shown)[:reading.bounds.max_entries - len(entries)]
    return LatexProject(main=_rel(main, root), lines=reading.lines, bib=entries,
                        warnings=list(dict.fromkeys(reading.warnings))[:200])


def _flatten(path: Path, reading: _Reading, seen: set[Path], depth: int) -> None:
    shown = _rel(path, reading.root)
    if path in seen or depth > reading.bounds.max_depth:
        reading.warnings.append(f"{shown} is included again (cycle or too deep); skipped")
        return
    text = reading.read(path, shown)
    if text is None:
        return
    seen = seen | {path}
    for n, raw in enumerate(text.splitlines(), start=1):
        if len(reading.lines) >= reading.bounds.max_lines:
            if not reading.stopped:
                reading.warnings.append(f"{shown}:{n} and what follows not read: a project is "
                                        f"read up to {reading.bounds.max_lines} lines")
            reading.stopped = True
            return
        line = _COMMENT.sub("", raw)
        reading.lines.append(SourceLine(file=shown, line=n, text=line))
        for match in _INPUT.finditer(line):
            name = match.group(1).strip()
            child = reading.root / (name if name.endswith(".tex") else name + ".tex")
            real = reading.inside(child)  # an absolute name replaces the root: refused
            if real is None:
                reading.warnings.append(f"{shown}:{n}: input {name} is outside the project; "
                                        "not read")
            elif real.is_file():
                _flatten(real, reading, seen, depth + 1)
            else:
                reading.warnings.append(f"{shown}:{n}: input {name} not found")


def _rel(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root).as_posix()
    except (ValueError, OSError, RuntimeError):
        return path.name


def read_bib(text: str, name: str, limit: int = ProjectBounds.max_entries) -> list[BibEntry]:
    """The entries of a .bib text (comments and @string/@preamble skipped). Linear: an
    entry's body is looked for only up to the next entry's start, and line numbers are
    counted once."""
    starts = list(_ENTRY.finditer(text))[:limit]
    entries = []
    line, counted = 1, 0
    for i, match in enumerate(starts):
        kind = match.group(1).lower()
        if kind in {"string", "preamble", "comment"}:
            continue
        line += text.count("\n", counted, match.start())
        counted = match.start()
        stop = starts[i + 1].start() if i + 1 < len(starts) else len(text)
        stop = min(stop, match.end() + _MAX_ENTRY_CHARS)
        body = _balanced_body(text, match.end(), stop)
        first = text[match.start():min(stop, match.start() + 300)].split("\n", 1)[0]
        entries.append(BibEntry(key=match.group(2), type=kind, fields=_fields(body),
                                source=SourceLine(file=name, line=line, text=first.strip())))
    return entries


def _balanced_body(text: str, start: int, stop: int) -> str:
    depth = 1
    for i in range(start, stop):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return text[start:i]
    return text[start:stop]


def _fields(body: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    pos = 0
    while (match := _FIELD.search(body, pos)) is not None:
        value, pos = _value(body, match.end())
        fields[match.group(1).lower()] = " ".join(value.split())
    return fields


def _value(body: str, i: int) -> tuple[str, int]:
    """A field value at ``i``: {braced}, "quoted" or a bare word; and where it ends."""
    if i < len(body) and body[i] in "{\"":
        close, depth, j = ("}" if body[i] == "{" else "\""), 0, i
        while j < len(body):
            ch = body[j]
            if body[i] == "{":
                depth += {"{": 1, "}": -1}.get(ch, 0)
                if depth == 0:
                    return body[i + 1:j].replace("{", "").replace("}", ""), j + 1
            elif ch == close and j > i:
                return body[i + 1:j].replace("{", "").replace("}", ""), j + 1
            j += 1
        return body[i + 1:], len(body)
    end = body.find(",", i)
    end = len(body) if end < 0 else end
    return body[i:end].strip(), end
