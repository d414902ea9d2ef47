"""Read a Zotero data directory: items, their PDF attachments, creators, tags, collections.

Zotero keeps ``zotero.sqlite`` locked while it runs, so the file (and its journal, if any) is
copied to a temporary folder and the copy is opened read-only. The tables read are those of
Zotero's user-data schema as of schema version 107 (Zotero 5.0; unchanged for these tables
through Zotero 7): ``items``, ``itemTypes``, ``itemData``/``itemDataValues``/``fields``,
``creators``/``itemCreators``/``creatorTypes``, ``tags``/``itemTags``, ``collections``/
``collectionItems``, ``itemAttachments`` and ``deletedItems`` (items in the trash are skipped).
Stored files live in ``storage/<attachment key>/<name>`` (paths written 'storage:<name>');
linked files are absolute paths.
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


def read_zotero(data_dir: Path) -> ZoteroLibrary:
    """Every regular item of ``data_dir``'s library (those without a PDF too)."""
    source = data_dir / "zotero.sqlite"
    if not source.is_file():
        raise ZoteroError(f"{data_dir}: no zotero.sqlite here (is it a Zotero data directory?)")
    with _read_only_copy(source) as conn:
        try:
            return _read(conn, data_dir)
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


def _read(conn: sqlite3.Connection, data_dir: Path) -> ZoteroLibrary:
    version = conn.execute("SELECT version FROM version WHERE schema = 'userdata'").fetchone()
    fields = _fields(conn)
    creators = _creators(conn)
    tags = _grouped(conn, "SELECT it.itemID AS id, t.name AS value FROM itemTags it"
                          " JOIN tags t ON t.tagID = it.tagID ORDER BY t.name")
    collections = _collections(conn)
    attachments = _attachments(conn, data_dir)
    library = ZoteroLibrary(schema_version=int(version["version"]) if version else None)
    placeholders = ",".join("?" * len(_SKIPPED_TYPES))
    rows = conn.execute(
        "SELECT i.itemID, i.key, t.typeName FROM items i JOIN itemTypes t"
        f" ON t.itemTypeID = i.itemTypeID WHERE t.typeName NOT IN ({placeholders})"
        " AND i.itemID NOT IN (SELECT itemID FROM deletedItems) ORDER BY i.itemID",
        _SKIPPED_TYPES).fetchall()
    for row in rows:
        item_id = row["itemID"]
        library.items.append(ImportedItem(
            source="zotero", key=row["key"],
            metadata=_metadata(row["typeName"], fields.get(item_id, {}), creators.get(item_id, [])),
            files=attachments.get(item_id, []), tags=tags.get(item_id, []),
            collections=sorted(collections.get(item_id, []))))
    return library


def _fields(conn: sqlite3.Connection) -> dict[int, dict[str, str]]:
    table = "fieldsCombined" if _has_table(conn, "fieldsCombined") else "fields"
    out: dict[int, dict[str, str]] = defaultdict(dict)
    for row in conn.execute(
            f"SELECT d.itemID, f.fieldName, v.value FROM itemData d JOIN {table} f"
            " ON f.fieldID = d.fieldID JOIN itemDataValues v ON v.valueID = d.valueID"):
        out[row["itemID"]][row["fieldName"]] = str(row["value"])
    return out


def _creators(conn: sqlite3.Connection) -> dict[int, list[Person]]:
    """Authors in order (editors when an item names no author)."""
    by_item: dict[int, dict[str, list[Person]]] = defaultdict(lambda: defaultdict(list))
    for row in conn.execute(
            "SELECT ic.itemID, c.firstName, c.lastName, c.fieldMode, ct.creatorType"
            " FROM itemCreators ic JOIN creators c ON c.creatorID = ic.creatorID"
            " JOIN creatorTypes ct ON ct.creatorTypeID = ic.creatorTypeID"
            " ORDER BY ic.itemID, ic.orderIndex"):
        single = row["fieldMode"] == 1  # one-field name (an institution): all in lastName
        person = Person(family=row["lastName"] or "", given="" if single else row["firstName"] or "")
        by_item[row["itemID"]][row["creatorType"]].append(person)
    return {item: kinds.get("author") or kinds.get("editor") or next(iter(kinds.values()))
            for item, kinds in by_item.items()}


def _collections(conn: sqlite3.Connection) -> dict[int, list[str]]:
    rows = conn.execute("SELECT collectionID, collectionName, parentCollectionID"
                        " FROM collections").fetchall()
    names = {r["collectionID"]: (r["collectionName"], r["parentCollectionID"]) for r in rows}

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


def _attachments(conn: sqlite3.Connection, data_dir: Path) -> dict[int, list[str]]:
    """PDF attachment paths by parent item (files that are missing are kept: reported later)."""
    out: dict[int, list[str]] = defaultdict(list)
    for row in conn.execute(
            "SELECT a.parentItemID, a.path, a.contentType, i.key FROM itemAttachments a"
            " JOIN items i ON i.itemID = a.itemID WHERE a.parentItemID IS NOT NULL"
            " AND a.itemID NOT IN (SELECT itemID FROM deletedItems) ORDER BY a.itemID"):
        raw = row["path"] or ""
        if row["contentType"] != "application/pdf" and not raw.lower().endswith(".pdf"):
            continue
        if raw.startswith("storage:"):
            out[row["parentItemID"]].append(str(data_dir / "storage" / row["key"] / raw[8:]))
        elif raw:  # a linked file; 'attachments:<rel>' (relative to Zotero's base folder,
            out[row["parentItemID"]].append(raw)  # set in prefs.js) is reported as not found
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


def _grouped(conn: sqlite3.Connection, sql: str) -> dict[int, list[str]]:
    out: dict[int, list[str]] = defaultdict(list)
    for row in conn.execute(sql):
        out[row["id"]].append(str(row["value"]))
    return out


def _has_table(conn: sqlite3.Connection, name: str) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE name = ? AND type IN ('table','view')",
                        (name,)).fetchone() is not None
