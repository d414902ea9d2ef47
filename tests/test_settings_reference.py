"""The documentation's settings reference is generated from Settings and kept current."""

from __future__ import annotations

from pathlib import Path

import pytest

from papermind import settings_reference
from papermind.config import Settings

REPO = Path(__file__).resolve().parents[1]
REGENERATE = "python -m papermind.settings_reference docs/reference/settings.md"


def test_every_setting_has_a_description() -> None:
    assert settings_reference.undocumented() == [], "describe these fields in config.py"


def test_committed_reference_is_current() -> None:
    committed = (REPO / settings_reference.PAGE_PATH).read_text(encoding="utf-8")
    assert committed == settings_reference.render(), f"stale settings page: run `{REGENERATE}`"


def test_reference_names_every_leaf_setting_with_its_environment_variable() -> None:
    page = settings_reference.render()
    for name in Settings.model_fields["search"].annotation.model_fields:  # type: ignore[union-attr]
        assert f"`PAPERMIND_SEARCH__{name.upper()}`" in page
    assert "`PAPERMIND_LLM__ENDPOINTS__<NAME>__BASE_URL`" in page
    assert "`PAPERMIND_HOME`" in page


def test_missing_description_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    field = Settings.model_fields["language"]
    monkeypatch.setattr(field, "description", None)
    assert "language" in settings_reference.undocumented()


def test_main_writes_the_page(tmp_path: Path) -> None:
    out = tmp_path / "settings.md"
    assert settings_reference.main([str(out)]) == 0
    assert out.read_text(encoding="utf-8") == settings_reference.render()
