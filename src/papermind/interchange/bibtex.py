"""BibTeX in and out, through bibtexparser (v2, MIT).

Reading keeps every good entry and reports each block the parser could not read (or a
duplicate key) with its 1-based line number. PDF paths come from the ``file`` field in the
forms reference managers write: JabRef's ``Description:path:Type`` list (``;``-separated,
``\\:`` escaping a drive colon), Zotero/Better BibTeX's plain path, or a bare path. An
attachment that is a URL stays a URL (never a path). Relative paths are taken from JabRef's
``fileDirectory`` (its ``@Comment{jabref-meta: ...}`` block, itself relative to the .bib file)
where the file sets one, else from the .bib file's folder. Writing goes through the same
library, so an exported file parses back to the same fields.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import bibtexparser
from bibtexparser import model
from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

from papermind.domain.works import ImportedItem, ImportProblem, Person, WorkMetadata
from papermind.interchange.field_values import LABEL_CHARS, BadValue, limit_for, text_value

_VENUE_FIELDS = ("journal", "booktitle", "series", "howpublished", "school", "institution")
_EXTRA_FIELDS = ("volume", "number", "pages", "publisher", "address", "isbn", "issn", "note")
_AND = re.compile(r"\s+and\s+", re.IGNORECASE)
_UNESCAPED = re.compile(r"(?<!\\)[;]")
_COLON = re.compile(r"(?<!\\):")
_BRACE_MACRO = {"{": "{\\textbraceleft}", "}": "{\\textbraceright}"}
URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
"""An attachment that is a web address, not a file ('http://arxiv.org/pdf/...')."""
_FILE_DIRECTORY = re.compile(r"jabref-meta:\s*fileDirectory(?:Latex)?(?:-[^:]*)?:((?:[^;\\]|\\.)*);")


def _latex_context() -> Any:
    """pylatexenc's macros plus the brace macros ``escape`` writes."""
    context = get_default_latex_context_db()
    context.add_context_category("papermind-braces", prepend=True, macros=[
        MacroTextSpec("textbraceleft", "{"), MacroTextSpec("textbraceright", "}")])
    return context


_LATEX = LatexNodes2Text(latex_context=_latex_context())
_SPECIAL = re.compile(r"(?<!\\)[&%#_$]")


@dataclass
class BibtexFile:
    """The entries of one .bib file, the blocks that could not be read, and the folders its
    JabRef metadata names for attachments."""

    items: list[ImportedItem] = field(default_factory=list)
    problems: list[ImportProblem] = field(default_factory=list)
    file_dirs: list[Path] = field(default_factory=list)


def read_bibtex(text: str, *, base_dir: Path) -> BibtexFile:
    """Parse ``text``; relative ``file`` paths are resolved against JabRef's
    ``fileDirectory`` when the file names one, else against ``base_dir``."""
    library = bibtexparser.parse_string(text)
    dirs = file_directories(text, base_dir)
    out = BibtexFile(file_dirs=dirs)
    bases = [*dirs, base_dir]
    for block in library.failed_blocks:
        line = (block.start_line or 0) + 1
        key = getattr(block, "key", None) or f"line {line}"
        reason = str(getattr(block, "error", "") or "unreadable entry").split("\n")[0]
        out.problems.append(ImportProblem(key=key, line=line, reason=f"line {line}: {reason}"))
    for entry in library.entries:
        line = (entry.start_line or 0) + 1
        try:
            out.items.append(_item(entry, bases, line))
        except BadValue as err:
            out.problems.append(ImportProblem(key=entry.key[:LABEL_CHARS], line=line,
                                              reason=f"line {line}: {err}"))
    return out


def _item(entry: model.Entry, bases: list[Path], line: int) -> ImportedItem:
    """One entry, its values bounded (a cut value is noted on the item)."""
    notes: list[str] = []
    values = {k.lower(): text_value(f.value, f"field {k.lower()!r}", limit_for(k), notes)
              for k, f in entry.fields_dict.items()}
    return ImportedItem(
        source="bibtex", key=entry.key[:LABEL_CHARS],
        metadata=entry_metadata(entry.entry_type, values),
        files=file_paths(values.get("file", ""), *bases), tags=_split_list(
            values.get("keywords", "")), collections=_split_list(values.get("groups", "")),
        line=line, notes=notes)


def entry_metadata(entry_type: str, values: dict[str, str]) -> WorkMetadata:
    year = re.search(r"\b(1[5-9]\d\d|20\d\d)\b", values.get("year") or values.get("date", ""))
    eprint = values.get("eprint", "")
    arxiv = eprint if "arxiv" in values.get("archiveprefix", values.get("eprinttype", "")).lower() \
        else None
    return WorkMetadata(
        entry_type=entry_type.lower(), title=_text(values.get("title", "")),
        authors=split_names(values.get("author") or values.get("editor", "")),
        year=int(year.group(1)) if year else None,
        venue=next((_text(values[f]) for f in _VENUE_FIELDS if values.get(f)), None),
        doi=values.get("doi") or None, arxiv=arxiv or None, url=values.get("url") or None,
        abstract=_text(values["abstract"]) if values.get("abstract") else None,
        extra={f: values[f] for f in _EXTRA_FIELDS if values.get(f)})


def split_names(value: str) -> list[Person]:
    """'Smith, John and {Google Research} and Jane Doe' -> three Persons."""
    people = []
    for name in _split_top_level(value):
        name = name.strip()
        if name.startswith("{") and name.endswith("}") and _balanced(name[1:-1]):
            people.append(Person(family=_text(name[1:-1])))
        elif name:
            people.append(Person.from_display(_text(name)))
    return people


def file_directories(text: str, base_dir: Path) -> list[Path]:
    """The attachment folders JabRef records in the file (``fileDirectory``, per-user
    ``fileDirectory-user-host`` and ``fileDirectoryLatex``), relative ones from ``base_dir``."""
    dirs: list[Path] = []
    for match in _FILE_DIRECTORY.finditer(text):
        raw = match.group(1).replace("\\:", ":").replace("\\\\", "\\").strip()
        if raw and not URL.match(raw):
            folder = Path(raw).expanduser()
            dirs.append(folder if folder.is_absolute() else base_dir / folder)
    return list(dict.fromkeys(dirs))


def file_paths(value: str, base_dir: Path, *more: Path) -> list[str]:
    """PDF attachments of a ``file`` field (JabRef list, Zotero/Better BibTeX or plain
    path), in order: paths and URLs as written; a relative path from the first of
    ``base_dir, *more`` that holds it (else from ``base_dir``)."""
    paths = []
    for part in (p.strip() for p in _UNESCAPED.split(value)):
        if not part:
            continue
        pieces = _COLON.split(part)
        if len(pieces) >= 3:  # JabRef: description:path:type (the path may hold colons)
            path, kind = ":".join(pieces[1:-1]), pieces[-1]
        else:
            path, kind = part, ""
        path = path.replace("\\:", ":").replace("\\\\", "\\").strip()
        if path and URL.match(path) and ("pdf" in kind.lower() or "pdf" in path.lower()):
            paths.append(path)
        elif path and ("pdf" in kind.lower() or path.lower().endswith(".pdf")):
            resolved = Path(path).expanduser()
            if not resolved.is_absolute():
                resolved = next((d / resolved for d in (base_dir, *more) if (d / resolved).is_file()),
                                base_dir / resolved)
            paths.append(str(resolved))
    return paths


def write_bibtex(entries: Iterable[tuple[str, str, dict[str, str]]]) -> str:
    """``(entry_type, key, fields)`` triples as BibTeX text, values in braces."""
    blocks: list[model.Block] = [model.Entry(entry_type, key, [model.Field(k, v) for k, v in fields.items() if v])
              for entry_type, key, fields in entries]
    return str(bibtexparser.write_string(bibtexparser.Library(blocks)))


def parse_fields(text: str) -> dict[str, dict[str, str]]:
    """Raw fields by key of every entry of ``text`` (what a round trip compares)."""
    library = bibtexparser.parse_string(text)
    return {e.key: {k: str(f.value) for k, f in e.fields_dict.items()} for e in library.entries}


def _text(value: str) -> str:
    """LaTeX markup ({\\"o}, braces, \\emph) to plain text, whitespace collapsed."""
    try:
        return " ".join(_LATEX.latex_to_text(value).split())
    except Exception:  # pylatexenc is lenient, but a malformed value must not stop an import
        return " ".join(value.replace("{", "").replace("}", "").split())


def _split_top_level(value: str) -> list[str]:
    """Split on ' and ' outside braces."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(value):
        depth += (char == "{") - (char == "}")
        if depth == 0 and (match := _AND.match(value, i)) and (i == 0 or value[i].isspace()):
            parts.append(value[start:i])
            start = match.end()
    parts.append(value[start:])
    return [p for p in parts if p.strip()]


def _balanced(text: str) -> bool:
    depth = 0
    for char in text:
        depth += (char == "{") - (char == "}")
        if depth < 0:
            return False
    return depth == 0


def _split_list(value: str) -> list[str]:
    return [x.strip()[:LABEL_CHARS] for x in re.split(r"[,;]", value) if x.strip()]


def metadata_fields(metadata: WorkMetadata) -> tuple[str, dict[str, str]]:
    """The entry type and BibTeX fields of ``metadata`` (arXiv ids as eprint fields)."""
    fields = {"title": escape(metadata.title),
              "author": " and ".join(_bibtex_name(p) for p in metadata.authors),
              "year": str(metadata.year) if metadata.year else ""}
    venue_field = {"article": "journal", "inproceedings": "booktitle",
                   "incollection": "booktitle", "phdthesis": "school",
                   "techreport": "institution"}.get(metadata.entry_type, "howpublished")
    fields[venue_field] = escape(metadata.venue or "")
    fields.update({"doi": metadata.doi or "", "url": metadata.url or ""})
    if metadata.arxiv:
        fields.update({"eprint": metadata.arxiv, "archiveprefix": "arXiv"})
    fields.update({k: escape(v) if k == "note" else v for k, v in metadata.extra.items()})
    return metadata.entry_type, {k: v for k, v in fields.items() if v}


def escape(text: str) -> str:
    """Text for a BibTeX field: LaTeX's special characters escaped, literal braces kept as
    braces (``\\{`` ``\\}`` when they pair up, else ``{\\textbraceleft}`` and
    ``{\\textbraceright}``, balanced by construction), so a title reads back as it was."""
    text = _SPECIAL.sub(lambda m: "\\" + m.group(0), text)
    if _balanced(text):
        return re.sub(r"(?<!\\)([{}])", r"\\\1", text)
    return re.sub(r"(?<!\\)[{}]", lambda m: _BRACE_MACRO[m.group(0)], text)


def _bibtex_name(person: Person) -> str:
    family, given = escape(person.family), escape(person.given)
    if not given:
        return "{" + family + "}" if " " in family or "," in family else family
    return f"{family}, {given}"
