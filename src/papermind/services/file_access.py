"""Which files a client of a server (an MCP assistant) may have the server read.

``file_inside`` resolves the path first (every symbolic link followed, ``..`` removed) and
accepts it only when the real file lies inside one of the allowed folders (themselves
resolved) and has an allowed suffix: a link inside a folder that points outside it, an
absolute path elsewhere and a ``.txt`` name on a link to another kind of file are refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from papermind.errors import InputError


def allowed_folders(configured: Sequence[Path], home: Path) -> list[Path]:
    """The configured folders, or the library's import folder ``<home>/import`` alone."""
    return [p.expanduser() for p in configured] or [home / "import"]


def file_inside(path: Path, folders: Sequence[Path], suffixes: Sequence[str]) -> Path:
    """The real path of ``path`` when allowed (see the module), else InputError."""
    shown = ", ".join(str(f) for f in folders) or "(none)"
    try:
        real = path.expanduser().resolve(strict=True)
    except (OSError, RuntimeError) as err:
        raise InputError(f"{path.name}: no such file") from err
    roots = [f.expanduser().resolve() for f in folders]
    if not any(real.is_relative_to(root) for root in roots):
        raise InputError(f"{path.name}: outside the folders papers may be added from ({shown})",
                         hint="copy the file into one of them, or list its folder in "
                              "mcp.add_folders")
    if real.suffix.lower() not in suffixes or not real.is_file():
        raise InputError(f"{path.name}: not a {', '.join(suffixes)} file once its links are "
                         "followed")
    return real
