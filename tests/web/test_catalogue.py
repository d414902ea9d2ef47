"""The web UI's strings: every one the templates and name tables show has a Chinese entry."""

from __future__ import annotations

from pathlib import Path

from jinja2.ext import babel_extract

from papermind.i18n import translator
from papermind.i18n.checks import problems
from papermind.web import errors, names

TEMPLATES = Path(names.__file__).parent / "templates"


def _template_messages() -> set[str]:
    found: set[str] = set()
    for path in sorted(TEMPLATES.glob("*.html")):
        with path.open("rb") as handle:
            for _, _, message, _ in babel_extract(handle, ["_", "gettext"], [],
                                                  {"extensions": "jinja2.ext.i18n"}):
                text = message if isinstance(message, str) else (message or [None])[0]
                if text:
                    found.add(text)
    return found


def test_every_ui_string_has_a_chinese_translation() -> None:
    shown = _template_messages()
    assert {"Ask the library", "Follow-up question", "Adding papers"} <= shown
    for table in (names.KINDS, names.STATUSES, names.UPLOAD_STATES, errors.TITLES):
        shown |= set(table.values())
    shown |= {errors.FALLBACK_TITLE, "Deep reading: {title}", "Pre-review: {title}"}
    zh = translator("web", "zh")
    missing = sorted(m for m in shown if m not in zh.messages or not zh.messages[m])
    assert missing == []
    assert problems() == []
