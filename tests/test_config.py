"""Settings: the storage URL defaults to the SQLite file under the home folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from papermind.config import Settings, load_settings


def test_storage_url_defaults_to_the_library_file_under_home(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path)
    assert settings.storage.url is None
    assert settings.storage_url == f"sqlite:///{tmp_path / 'library.sqlite3'}"


def test_storage_url_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAPERMIND_STORAGE__URL", "postgresql://pm@db.example:5432/lib")
    assert load_settings().storage_url == "postgresql://pm@db.example:5432/lib"


def test_paper_files_default_under_home_and_follow_storage_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings(home=tmp_path).files_dir == tmp_path / "files"
    monkeypatch.setenv("PAPERMIND_STORAGE__FILES", str(tmp_path / "shared"))
    assert load_settings(home=tmp_path / "elsewhere").files_dir == tmp_path / "shared"
