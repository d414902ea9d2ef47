"""Build a Zotero data directory (zotero.sqlite + storage/) the way Zotero lays it out.

The tables and columns are those of Zotero's user-data schema version 107 (items, itemData,
itemDataValues, itemNotes, itemAttachments, tags, itemTags, creators, itemCreators,
collections, collectionItems, deletedItems, libraries) plus the system tables they refer to
(itemTypes, fields, creatorTypes) and the `version` table Zotero records it in. Only the
columns Zotero defines are created; foreign keys are declared as Zotero declares them.
"""

from __future__ import annotations

import shutil
import sqlite3
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

SCHEMA = """
CREATE TABLE version (schema TEXT PRIMARY KEY, version INT NOT NULL);
CREATE TABLE libraries (libraryID INTEGER PRIMARY KEY, type TEXT NOT NULL, editable INT NOT NULL,
    filesEditable INT NOT NULL, version INT NOT NULL DEFAULT 0,
    storageVersion INT NOT NULL DEFAULT 0, lastSync INT NOT NULL DEFAULT 0,
    archived INT NOT NULL DEFAULT 0);
CREATE TABLE itemTypes (itemTypeID INTEGER PRIMARY KEY, typeName TEXT, templateItemTypeID INT,
    display INT DEFAULT 1);
CREATE TABLE fields (fieldID INTEGER PRIMARY KEY, fieldName TEXT, fieldFormatID INT);
CREATE TABLE creatorTypes (creatorTypeID INTEGER PRIMARY KEY, creatorType TEXT);
CREATE TABLE items (itemID INTEGER PRIMARY KEY, itemTypeID INT NOT NULL,
    dateAdded TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    dateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    clientDateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    libraryID INT NOT NULL, key TEXT NOT NULL, version INT NOT NULL DEFAULT 0,
    synced INT NOT NULL DEFAULT 0, UNIQUE (libraryID, key),
    FOREIGN KEY (libraryID) REFERENCES libraries(libraryID) ON DELETE CASCADE);
CREATE TABLE itemDataValues (valueID INTEGER PRIMARY KEY, value UNIQUE);
CREATE TABLE itemData (itemID INT, fieldID INT, valueID, PRIMARY KEY (itemID, fieldID),
    FOREIGN KEY (itemID) REFERENCES items(itemID) ON DELETE CASCADE,
    FOREIGN KEY (fieldID) REFERENCES fields(fieldID),
    FOREIGN KEY (valueID) REFERENCES itemDataValues(valueID));
CREATE TABLE itemNotes (itemID INTEGER PRIMARY KEY, parentItemID INT, note TEXT, title TEXT,
    FOREIGN KEY (itemID) REFERENCES items(itemID) ON DELETE CASCADE,
    FOREIGN KEY (parentItemID) REFERENCES items(itemID) ON DELETE CASCADE);
CREATE TABLE itemAttachments (itemID INTEGER PRIMARY KEY, parentItemID INT, linkMode INT,
    contentType TEXT, charsetID INT, path TEXT, syncState INT DEFAULT 0, storageModTime INT,
    storageHash TEXT,
    FOREIGN KEY (itemID) REFERENCES items(itemID) ON DELETE CASCADE,
    FOREIGN KEY (parentItemID) REFERENCES items(itemID) ON DELETE CASCADE);
CREATE TABLE tags (tagID INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE itemTags (itemID INT NOT NULL, tagID INT NOT NULL, type INT NOT NULL,
    PRIMARY KEY (itemID, tagID),
    FOREIGN KEY (itemID) REFERENCES items(itemID) ON DELETE CASCADE,
    FOREIGN KEY (tagID) REFERENCES tags(tagID) ON DELETE CASCADE);
CREATE TABLE creators (creatorID INTEGER PRIMARY KEY, firstName TEXT, lastName TEXT,
    fieldMode INT, UNIQUE (lastName, firstName, fieldMode));
CREATE TABLE itemCreators (itemID INT NOT NULL, creatorID INT NOT NULL,
    creatorTypeID INT NOT NULL DEFAULT 1, orderIndex INT NOT NULL DEFAULT 0,
    PRIMARY KEY (itemID, creatorID, creatorTypeID, orderIndex), UNIQUE (itemID, orderIndex),
    FOREIGN KEY (itemID) REFERENCES items(itemID) ON DELETE CASCADE,
    FOREIGN KEY (creatorID) REFERENCES creators(creatorID) ON DELETE CASCADE,
    FOREIGN KEY (creatorTypeID) REFERENCES creatorTypes(creatorTypeID));
CREATE TABLE collections (collectionID INTEGER PRIMARY KEY, collectionName TEXT NOT NULL,
    parentCollectionID INT DEFAULT NULL,
    clientDateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, libraryID INT NOT NULL,
    key TEXT NOT NULL, version INT NOT NULL DEFAULT 0, synced INT NOT NULL DEFAULT 0,
    UNIQUE (libraryID, key),
    FOREIGN KEY (libraryID) REFERENCES libraries(libraryID) ON DELETE CASCADE,
    FOREIGN KEY (parentCollectionID) REFERENCES collections(collectionID) ON DELETE CASCADE);
CREATE TABLE collectionItems (collectionID INT NOT NULL, itemID INT NOT NULL,
    orderIndex INT NOT NULL DEFAULT 0, PRIMARY KEY (collectionID, itemID),
    FOREIGN KEY (collectionID) REFERENCES collections(collectionID) ON DELETE CASCADE,
    FOREIGN KEY (itemID) REFERENCES items(itemID) ON DELETE CASCADE);
CREATE TABLE deletedItems (itemID INTEGER PRIMARY KEY,
    dateDeleted DEFAULT CURRENT_TIMESTAMP NOT NULL,
    FOREIGN KEY (itemID) REFERENCES items(itemID) ON DELETE CASCADE);
"""
# ids as in Zotero's system schema
ITEM_TYPES = {2: "book", 3: "bookSection", 4: "journalArticle", 10: "conferencePaper",
              14: "attachment", 26: "note", 31: "preprint"}
FIELDS = {1: "title", 2: "abstractNote", 6: "date", 4: "volume", 10: "pages", 12: "publicationTitle",
          13: "url", 22: "extra", 26: "DOI", 57: "proceedingsTitle", 123: "archiveID"}
CREATOR_TYPES = {1: "author", 2: "contributor", 3: "editor"}


@dataclass
class ZoteroItem:
    """One regular item to write (attachment: a PDF to copy into storage/, or None)."""

    key: str
    item_type: str
    fields: dict[str, str]
    creators: list[tuple[str, str, int]] = field(default_factory=list)  # first, last, fieldMode
    tags: list[str] = field(default_factory=list)
    collections: list[str] = field(default_factory=list)  # collection keys
    pdf: Path | None = None
    note: str | None = None
    linked: bool = False  # a linked file (absolute path) instead of a stored copy
    trashed: bool = False


def build_zotero(folder: Path, items: list[ZoteroItem],
                 collections: list[tuple[str, str, str | None]]) -> Path:
    """Write ``folder``/zotero.sqlite and storage/; collections are (key, name, parent key)."""
    folder.mkdir(parents=True, exist_ok=True)
    with closing(sqlite3.connect(folder / "zotero.sqlite")) as conn, conn:
        conn.executescript(SCHEMA)
        conn.execute("INSERT INTO version VALUES ('userdata', 107)")
        conn.execute("INSERT INTO libraries(libraryID, type, editable, filesEditable)"
                     " VALUES (1, 'user', 1, 1)")
        conn.executemany("INSERT INTO itemTypes(itemTypeID, typeName) VALUES (?,?)",
                         ITEM_TYPES.items())
        conn.executemany("INSERT INTO fields(fieldID, fieldName) VALUES (?,?)", FIELDS.items())
        conn.executemany("INSERT INTO creatorTypes VALUES (?,?)", CREATOR_TYPES.items())
        ids = _collections(conn, collections)
        for item in items:
            _item(conn, folder, item, ids)
    return folder


def _collections(conn: sqlite3.Connection, collections: list[tuple[str, str, str | None]]
                 ) -> dict[str, int]:
    ids: dict[str, int] = {}
    for key, name, parent in collections:
        cur = conn.execute("INSERT INTO collections(collectionName, parentCollectionID, libraryID,"
                           " key) VALUES (?,?,1,?)", (name, ids.get(parent) if parent else None, key))
        ids[key] = int(cur.lastrowid or 0)
    return ids


def _new_item(conn: sqlite3.Connection, type_name: str, key: str) -> int:
    type_id = next(i for i, n in ITEM_TYPES.items() if n == type_name)
    cur = conn.execute("INSERT INTO items(itemTypeID, libraryID, key) VALUES (?,1,?)",
                       (type_id, key))
    return int(cur.lastrowid or 0)


def _value(conn: sqlite3.Connection, value: str) -> int:
    row = conn.execute("SELECT valueID FROM itemDataValues WHERE value = ?", (value,)).fetchone()
    if row:
        return int(row[0])
    return int(conn.execute("INSERT INTO itemDataValues(value) VALUES (?)", (value,)).lastrowid or 0)


def _item(conn: sqlite3.Connection, folder: Path, item: ZoteroItem, collections: dict[str, int]) -> None:
    item_id = _new_item(conn, item.item_type, item.key)
    field_ids = {n: i for i, n in FIELDS.items()}
    for name, value in item.fields.items():
        conn.execute("INSERT INTO itemData VALUES (?,?,?)",
                     (item_id, field_ids[name], _value(conn, value)))
    for order, (first, last, mode) in enumerate(item.creators):
        conn.execute("INSERT OR IGNORE INTO creators(firstName, lastName, fieldMode) VALUES (?,?,?)",
                     (first, last, mode))
        creator = conn.execute("SELECT creatorID FROM creators WHERE firstName = ? AND lastName = ?"
                               " AND fieldMode = ?", (first, last, mode)).fetchone()[0]
        conn.execute("INSERT INTO itemCreators VALUES (?,?,1,?)", (item_id, creator, order))
    for tag in item.tags:
        conn.execute("INSERT OR IGNORE INTO tags(name) VALUES (?)", (tag,))
        tag_id = conn.execute("SELECT tagID FROM tags WHERE name = ?", (tag,)).fetchone()[0]
        conn.execute("INSERT INTO itemTags VALUES (?,?,0)", (item_id, tag_id))
    for order, key in enumerate(item.collections):
        conn.execute("INSERT INTO collectionItems VALUES (?,?,?)", (collections[key], item_id, order))
    if item.pdf is not None:
        _attachment(conn, folder, item, item_id)
    if item.note is not None:
        note_id = _new_item(conn, "note", item.key + "N")
        conn.execute("INSERT INTO itemNotes VALUES (?,?,?,?)", (note_id, item_id, item.note, "n"))
    if item.trashed:
        conn.execute("INSERT INTO deletedItems(itemID) VALUES (?)", (item_id,))


def _attachment(conn: sqlite3.Connection, folder: Path, item: ZoteroItem, parent: int) -> None:
    assert item.pdf is not None
    key = "A" + item.key[1:]
    attachment = _new_item(conn, "attachment", key)
    if item.linked:  # linkMode 2: linked file, absolute path
        conn.execute("INSERT INTO itemAttachments(itemID, parentItemID, linkMode, contentType, path)"
                     " VALUES (?,?,2,'application/pdf',?)", (attachment, parent, str(item.pdf)))
        return
    storage = folder / "storage" / key  # linkMode 0/1: stored file, 'storage:<name>'
    storage.mkdir(parents=True)
    shutil.copyfile(item.pdf, storage / item.pdf.name)
    conn.execute("INSERT INTO itemAttachments(itemID, parentItemID, linkMode, contentType, path)"
                 " VALUES (?,?,1,'application/pdf',?)", (attachment, parent, f"storage:{item.pdf.name}"))
    conn.execute("INSERT INTO itemData VALUES (?,?,?)", (attachment, 1, _value(conn, "Full Text PDF")))
