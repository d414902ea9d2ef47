"""Read a Zotero data directory: items, their PDF attachments, creators, tags, collections.

Zotero keeps ``zotero.sqlite`` locked while it runs, so the file (and its journal, if any) is
copied to a temporary folder and the copy is opened read-only. The tables read are those of
Zotero's user-data schema as of schema version 107 (Zotero 5.0; unchanged for these tables
through Zotero 7): ``items``, ``itemTypes``, ``itemData``/``itemDataValues``/``fields``,
``creators``/``itemCreators``/``creatorTypes``, ``tags``/``itemTags``, ``collections``/
``collectionItems``, ``itemAttachments`` and ``deletedItems`` (items in the trash are skipped).
Stored files live in ``storage/<attachment key>/<name>`` (paths written 'storage:<name>');
linked files are absolute paths or 'attachments:<rel>' below the base folder set in Zotero's
prefs.js (see ``zotero_prefs``). The file is untrusted input: values that are not text refuse
their item, over-long ones are cut with a note.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
import tempfile
from collections import defaultdict
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from papermind.domain.works import ImportedItem, ImportProblem, Person, WorkMetadata
from papermind.errors import InputError
from papermind.interchange.field_values import (
    LABEL_CHARS,
    NAME_CHARS,
    BadValue,
    limit_for,
    text_value,
)

SCHEMA_VERSION = 107
_SKIPPED_TYPES = ("attachment", "note", "annotation")
_ENTRY_TYPES = {"journalArticle": "article", "conferencePaper": "inproceedings",
                "preprint": "misc", "book": "book", "bookSection": "incollection",
                "thesis": "phdthesis", "report": "techreport", "manuscript": "unpublished"}
_VENUE_FIELDS = ("publicationTitle", "proceedingsTitle", "bookTitle", "conferenceName", "series")
_EXTRA_FIELDS = ("volume", "issue", "pages", "publisher", "place", "ISBN", "ISSN")
_ARXIV_IN_EXTRA = re.compile(r"^\s*arxiv\s*:\s*(\S+)", re.IGNORECASE | re.MULTILINE)


class ZoteroError(InputError):
    """The folder is not a readable Zotero data directory."""


@dataclass
class ZoteroLibrary:
    """The items of one Zotero library and what could not be read."""

    items: list[ImportedItem] = field(default_factory=list)
    problems: list[ImportProblem] = field(default_factory=list)
    schema_version: int | None = None


def read_zotero(data_dir: Path, *, base_dir: Path | None = None) -> ZoteroLibrary:
    """Every regular item of ``data_dir``'s library (those without a PDF too).

    ``base_dir`` is Zotero's linked-attachment base folder ('attachments:<rel>' paths are
    taken from it). An item with a value that is not text (a BLOB) is reported, not read.
    """
    source = data_dir / "zotero.sqlite"
    if not source.is_file():
        raise ZoteroError(f"{data_dir}: no zotero.sqlite here (is it a Zotero data directory?)")
    with _read_only_copy(source) as conn:
        try:
            return _read(conn, data_dir, base_dir)
        except sqlite3.DatabaseError as err:
            raise ZoteroError(f"{source}: not a Zotero database ({err})") from err


@contextmanager
def _read_only_copy(source: Path) -> Iterator[sqlite3.Connection]:
    with tempfile.TemporaryDirectory(prefix="papermind-zotero-") as tmp:
        copy = Path(tmp) / "zotero.sqlite"
        shutil.copyfile(source, copy)
        for suffix in ("-wal", "-journal"):
            if (extra := source.with_name(source.name + suffix)).is_file():
                shutil.copyfile(extra, copy.with_name(copy.name + suffix))
        with closing(sqlite3.connect(f"{copy.as_uri()}?mode=ro", uri=True)) as conn:
            conn.row_factory = sqlite3.Row
            yield conn


def _read(conn: sqlite3.Connection, data_dir: Path, base_dir: Path | None) -> ZoteroLibrary:
    raw = _RawItems(fields=_fields(conn), creators=_creators(conn),
                    tags=_grouped(conn, "SELECT it.itemID AS id, t.name AS value FROM itemTags it"
                                        " JOIN tags t ON t.tagID = it.tagID ORDER BY t.name"),
                    collections=_collections(conn),
                    attachments=_attachments(conn, data_dir, base_dir))
    library = ZoteroLibrary(schema_version=_version(conn))
    placeholders = ",".join("?" * len(_SKIPPED_TYPES))
    rows = conn.execute(
        "SELECT i.itemID, i.key, t.typeName FROM items i JOIN itemTypes t"
        f" ON t.itemTypeID = i.itemTypeID WHERE t.typeName NOT IN ({placeholders})"
        " AND i.itemID NOT IN (SELECT itemID FROM deletedItems) ORDER BY i.itemID",
        _SKIPPED_TYPES).fetchall()
    for row in rows:
        key = row["key"] if isinstance(row["key"], str) else f"item {row['itemID']}"
        try:
            library.items.append(_item(row, key[:LABEL_CHARS], raw))
        except BadValue as err:
            library.problems.append(ImportProblem(key=key[:LABEL_CHARS], reason=str(err)))
    return library


@dataclass
class _RawItems:
    """Values as stored (any SQLite type), by item id; made text item by item."""

    fields: dict[int, dict[str, object]]
    creators: dict[int, list[tuple[object, object, bool, str]]]
    tags: dict[int, list[object]]
    collections: dict[int, list[str]]
    attachments: dict[int, list[str]]


def _item(row: sqlite3.Row, key: str, raw: _RawItems) -> ImportedItem:
    item_id, notes = row["itemID"], list[str]()
    values = {name: text_value(value, f"field {name!r}", limit_for(name), notes)
              for name, value in raw.fields.get(item_id, {}).items()}
    authors = [_person(first, last, single, f"creator {n} ({kind})", notes)
               for n, (first, last, single, kind) in enumerate(raw.creators.get(item_id, []), 1)]
    tags = [text_value(t, "a tag", LABEL_CHARS, notes) for t in raw.tags.get(item_id, [])]
    return ImportedItem(
        source="zotero", key=key, metadata=_metadata(str(row["typeName"]), values, authors),
        files=raw.attachments.get(item_id, []), tags=[t for t in tags if t.strip()],
        collections=sorted(raw.collections.get(item_id, [])), notes=notes)


def _person(first: object, last: object, single: bool, what: str, notes: list[str]) -> Person:
    family = text_value(last, f"{what} last name", NAME_CHARS, notes)
    given = text_value(first, f"{what} first name", NAME_CHARS, notes)
    return Person(family=family, given="" if single else given)


def _version(conn: sqlite3.Connection) -> int | None:
    row = conn.execute("SELECT version FROM version WHERE schema = 'userdata'").fetchone()
    try:
        return int(row["version"]) if row else None
    except (TypeError, ValueError):
        return None


def _fields(conn: sqlite3.Connection) -> dict[int, dict[str, object]]:
    table = "fieldsCombined" if _has_table(conn, "fieldsCombined") else "fields"
    out: dict[int, dict[str, object]] = defaultdict(dict)
    for row in conn.execute(
            f"SELECT d.itemID, f.fieldName, v.value FROM itemData d JOIN {table} f"
            " ON f.fieldID = d.fieldID JOIN itemDataValues v ON v.valueID = d.valueID"):
        out[row["itemID"]][str(row["fieldName"])] = row["value"]
    return out


def _creators(conn: sqlite3.Connection) -> dict[int, list[tuple[object, object, bool, str]]]:
    """Authors in order (editors when an item names no author), as stored."""
    by_item: dict[int, dict[str, list[tuple[object, object, bool, str]]]] = \
        defaultdict(lambda: defaultdict(list))
    for row in conn.execute(
            "SELECT ic.itemID, c.firstName, c.lastName, c.fieldMode, ct.creatorType"
            " FROM itemCreators ic JOIN creators c ON c.creatorID = ic.creatorID"
            " JOIN creatorTypes ct ON ct.creatorTypeID = ic.creatorTypeID"
            " ORDER BY ic.itemID, ic.orderIndex"):
        single = row["fieldMode"] == 1  # one-field name (an institution): all in lastName
        kind = str(row["creatorType"])
        by_item[row["itemID"]][kind].append((row["firstName"], row["lastName"], single, kind))
    return {item: kinds.get("author") or kinds.get("editor") or next(iter(kinds.values()))
            for item, kinds in by_item.items()}


def _collections(conn: sqlite3.Connection) -> dict[int, list[str]]:
    rows = conn.execute("SELECT collectionID, collectionName, parentCollectionID"
                        " FROM collections").fetchall()
    names = {r["collectionID"]: (_collection_name(r), r["parentCollectionID"]) for r in rows}

    def path(collection_id: int) -> str:
        parts: list[str] = []
        seen: set[int] = set()
        current: int | None = collection_id
        while current is not None and current in names and current not in seen:
            seen.add(current)
            name, current = names[current]
            parts.insert(0, name.replace("/", "-"))
        return "/".join(parts)

    members: dict[int, list[str]] = defaultdict(list)
    for row in conn.execute("SELECT collectionID, itemID FROM collectionItems"):
        members[row["itemID"]].append(path(row["collectionID"]))
    return members


def _collection_name(row: sqlite3.Row) -> str:
    """A collection's name (a name that is not text is shown as 'collection <id>')."""
    try:
        return text_value(row["collectionName"], "a collection name", LABEL_CHARS, [])
    except BadValue:
        return f"collection {row['collectionID']}"


def _attachments(conn: sqlite3.Connection, data_dir: Path,
                 base_dir: Path | None) -> dict[int, list[str]]:
    """PDF attachment paths by parent item (missing files are kept: reported later).

    Stored files are under ``storage/<key>/``; linked files are absolute paths or
    'attachments:<rel>' below the base folder (kept as written when none is configured).
    Where a path may be taken from is decided by the importer, not here.
    """
    out: dict[int, list[str]] = defaultdict(list)
    for row in conn.execute(
            "SELECT a.parentItemID, a.path, a.contentType, i.key FROM itemAttachments a"
            " JOIN items i ON i.itemID = a.itemID WHERE a.parentItemID IS NOT NULL"
            " AND a.itemID NOT IN (SELECT itemID FROM deletedItems) ORDER BY a.itemID"):
        raw, key = row["path"], row["key"]
        if not isinstance(raw, str) or not isinstance(key, str) or "\x00" in raw:
            continue
        if row["contentType"] != "application/pdf" and not raw.lower().endswith(".pdf"):
            continue
        if raw.startswith("storage:"):
            out[row["parentItemID"]].append(str(data_dir / "storage" / key / raw[8:]))
        elif raw.startswith("attachments:") and base_dir is not None:
            out[row["parentItemID"]].append(str(base_dir / raw[12:]))
        elif raw:
            out[row["parentItemID"]].append(raw)
    return out


def _metadata(type_name: str, values: dict[str, str], authors: list[Person]) -> WorkMetadata:
    year = re.search(r"\b(1[5-9]\d\d|20\d\d)\b", values.get("date", ""))
    extra = values.get("extra", "")
    arxiv = _ARXIV_IN_EXTRA.search(extra)
    archive_id = values.get("archiveID", "")
    return WorkMetadata(
        entry_type=_ENTRY_TYPES.get(type_name, "misc"), title=values.get("title", "").strip(),
        authors=authors, year=int(year.group(1)) if year else None,
        venue=next((values[f] for f in _VENUE_FIELDS if values.get(f)), None),
        doi=values.get("DOI") or None, url=values.get("url") or None,
        arxiv=(arxiv.group(1) if arxiv else None) or (archive_id if "arxiv" in
                                                     archive_id.lower() else None),
        abstract=values.get("abstractNote") or None,
        extra={f.lower(): values[f] for f in _EXTRA_FIELDS if values.get(f)})


def _grouped(conn: sqlite3.Connection, sql: str) -> dict[int, list[object]]:
    out: dict[int, list[object]] = defaultdict(list)
    for row in conn.execute(sql):
        out[row["id"]].append(row["value"])
    return out


def _has_table(conn: sqlite3.Connection, name: str) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE name = ? AND type IN ('table','view')",
                        (name,)).fetchone() is not None
