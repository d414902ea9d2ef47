"""A LaTeX project as the author edits it: the main file flattened through ``\\input`` and
``\\include`` (every line keeps its file and line number, comments blanked) and the entries
of the ``.bib`` files it names, each with the line it starts on."""

from __future__ import annotations

import re
from pathlib import Path

from papermind.domain.check import BibEntry, LatexProject, SourceLine
from papermind.errors import InputError

MAX_DEPTH = 12
_INPUT = re.compile(r"\\(?:input|include|subfile)\s*\{([^}]+)\}")
_BIBS = re.compile(r"\\(?:bibliography|addbibresource)\s*(?:\[[^\]]*\])?\{([^}]+)\}")
_COMMENT = re.compile(r"(?<!\\)%.*$")
_ENTRY = re.compile(r"@\s*(\w+)\s*[{(]\s*([^,\s]+)\s*,")
_FIELD = re.compile(r"(\w[\w-]*)\s*=\s*")


def main_file(path: Path) -> Path:
    """The main .tex of a project folder (main.tex, else the one with \\documentclass)."""
    if path.is_file():
        return path
    if (path / "main.tex").is_file():
        return path / "main.tex"
    for candidate in sorted(path.glob("*.tex")):
        if "\\documentclass" in candidate.read_text(encoding="utf-8", errors="replace"):
            return candidate
    raise InputError(f"no main .tex in {path} (expected main.tex or a file with \\documentclass)")


def read_project(path: Path) -> LatexProject:
    """The project whose main file is ``path`` (or the main file of the folder ``path``)."""
    main = main_file(path)
    root = main.parent
    lines: list[SourceLine] = []
    warnings: list[str] = []
    _flatten(main, root, lines, warnings, set(), 0)
    bib_names = [n.strip() for ln in lines for m in _BIBS.finditer(ln.text) for n in m.group(1).split(",")]
    bib_files = [root / (n if n.endswith(".bib") else n + ".bib") for n in bib_names if n]
    if not bib_files:
        bib_files = sorted(root.glob("*.bib"))
    entries: list[BibEntry] = []
    for bib in bib_files:
        if bib.is_file():
            entries += read_bib(bib.read_text(encoding="utf-8", errors="replace"), _rel(bib, root))
        else:
            warnings.append(f"bibliography {_rel(bib, root)} not found")
    return LatexProject(main=_rel(main, root), lines=lines, bib=entries, warnings=warnings)


def _flatten(path: Path, root: Path, out: list[SourceLine], warnings: list[str],
             seen: set[Path], depth: int) -> None:
    if path in seen or depth > MAX_DEPTH:
        warnings.append(f"{_rel(path, root)} is included again (cycle or too deep); skipped")
        return
    seen = seen | {path}
    text = path.read_text(encoding="utf-8", errors="replace")
    for n, raw in enumerate(text.splitlines(), start=1):
        line = _COMMENT.sub("", raw)
        out.append(SourceLine(file=_rel(path, root), line=n, text=line))
        for match in _INPUT.finditer(line):
            name = match.group(1).strip()
            child = root / (name if name.endswith(".tex") else name + ".tex")
            if child.is_file():
                _flatten(child, root, out, warnings, seen, depth + 1)
            else:
                warnings.append(f"{_rel(path, root)}:{n}: input {name} not found")


def _rel(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.name


def read_bib(text: str, name: str) -> list[BibEntry]:
    """The entries of a .bib text (comments and @string/@preamble skipped)."""
    entries = []
    for match in _ENTRY.finditer(text):
        kind = match.group(1).lower()
        if kind in {"string", "preamble", "comment"}:
            continue
        body = _balanced_body(text, match.end())
        line = text.count("\n", 0, match.start()) + 1
        first = text[match.start():text.find("\n", match.start()) % (len(text) + 1)]
        entries.append(BibEntry(key=match.group(2), type=kind, fields=_fields(body),
                                source=SourceLine(file=name, line=line, text=first.strip())))
    return entries


def _balanced_body(text: str, start: int) -> str:
    depth = 1
    for i in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return text[start:i]
    return text[start:]


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
