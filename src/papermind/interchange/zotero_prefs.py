"""Zotero's linked-attachment base folder, from its profile's ``prefs.js``.

Zotero stores linked files under a base folder as ``attachments:<relative path>`` and keeps
that folder in the preference ``extensions.zotero.baseAttachmentPath`` of its profile's
``prefs.js`` (a Firefox-style profile: ``~/.zotero/zotero/<profile>/`` on Linux,
``~/Library/Application Support/Zotero/Profiles/<profile>/`` on macOS,
``%APPDATA%\\Zotero\\Zotero\\Profiles\\<profile>\\`` on Windows). When several profiles exist,
the one whose ``extensions.zotero.dataDir`` is the data directory being imported wins.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

BASE_PREF = "extensions.zotero.baseAttachmentPath"
DATA_DIR_PREF = "extensions.zotero.dataDir"
_PREF = re.compile(r'^\s*user_pref\(\s*("(?:[^"\\]|\\.)*")\s*,\s*("(?:[^"\\]|\\.)*")\s*\)\s*;',
                   re.MULTILINE)


def read_prefs(prefs_js: Path) -> dict[str, str]:
    """The string preferences of one ``prefs.js`` (unreadable lines are skipped)."""
    try:
        text = prefs_js.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    out: dict[str, str] = {}
    for match in _PREF.finditer(text):
        try:
            out[json.loads(match.group(1))] = json.loads(match.group(2))
        except ValueError:
            continue
    return out


def profile_prefs() -> list[Path]:
    """The ``prefs.js`` files of the Zotero profiles on this machine."""
    home = Path.home()
    roots = [home / ".zotero" / "zotero", home / "Library" / "Application Support" / "Zotero"
             / "Profiles"]
    if appdata := os.environ.get("APPDATA"):
        roots.append(Path(appdata) / "Zotero" / "Zotero" / "Profiles")
    found: list[Path] = []
    for root in roots:
        if root.is_dir():
            found.extend(sorted(p for p in root.glob("*/prefs.js") if p.is_file()))
    return found


def base_folder(data_dir: Path, prefs_js: Path | None = None) -> Path | None:
    """The base folder of linked attachments for ``data_dir`` (None when none is set)."""
    candidates = [prefs_js] if prefs_js is not None else profile_prefs()
    chosen: Path | None = None
    for path in candidates:
        prefs = read_prefs(path)
        if not prefs.get(BASE_PREF):
            continue
        base = Path(prefs[BASE_PREF]).expanduser()
        if prefs_js is not None or _same(prefs.get(DATA_DIR_PREF), data_dir):
            return base
        chosen = chosen or (base if len(candidates) == 1 else None)
    return chosen


def _same(configured: str | None, data_dir: Path) -> bool:
    if not configured:
        return data_dir.expanduser().resolve() == (Path.home() / "Zotero").resolve()
    return Path(configured).expanduser().resolve() == data_dir.expanduser().resolve()
