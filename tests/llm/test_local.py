"""The offline default: locating and assembling the bundled model (its server: test_local_server*)."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pytest

from papermind.errors import ConfigError
from papermind.llm import local
from papermind.llm.local import BundledModel, locate_bundled


def _fake_parts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunks: list[bytes]) -> None:
    for i, chunk in enumerate(chunks, start=1):
        package = tmp_path / "site" / f"pm_fake_part{i}"
        (package / "data").mkdir(parents=True)
        (package / "__init__.py").write_text("raise RuntimeError('must not be imported')\n")
        (package / "data" / "blob.bin").write_bytes(chunk)
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.setenv("PAPERMIND_MODEL_DIR", str(tmp_path / "models"))


def test_split_model_is_assembled_once_and_verified(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    chunks = [b"GGUF" + b"a" * 1000, b"b" * 2000, b"c" * 5]
    _fake_parts(tmp_path, monkeypatch, chunks)
    files = tuple((f"pm_fake_part{i}", "data/blob.bin") for i in range(1, 4))
    model = BundledModel("fake", files, hashlib.sha256(b"".join(chunks)).hexdigest(), "MIT")
    path = locate_bundled(model)
    assert path is not None and path.read_bytes() == b"".join(chunks)
    assert path.parent == tmp_path / "models"
    assert locate_bundled(model) == path  # reused, not rebuilt
    assert "pm_fake_part1" not in sys.modules  # located, never imported
    wrong = BundledModel("wrong", files, "0" * 64, "MIT")
    with pytest.raises(ConfigError, match="checksum"):
        locate_bundled(wrong)
    assert not list((tmp_path / "models").glob("*.partial"))
    missing = BundledModel("missing", (("pm_no_such_package", "x"),), "0" * 64, "MIT")
    assert locate_bundled(missing) is None


def test_the_setting_picks_a_bundled_model_by_name(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_parts(tmp_path, monkeypatch, [b"GGUF small", b"GGUF large"])
    small = BundledModel("small", (("pm_fake_part1", "data/blob.bin"),), "0" * 64, "MIT")
    large = BundledModel("large", (("pm_fake_part2", "data/blob.bin"),), "0" * 64, "MIT")
    absent = BundledModel("absent", (("pm_no_such_package", "x"),), "0" * 64, "MIT")
    monkeypatch.setattr(local, "BUNDLED_MODELS", (absent, small, large))
    assert local.installed_model() == small  # 'auto': the preferred one installed
    assert local.installed_model("large") == large
    assert local.installed_model("absent") is None
    with pytest.raises(ConfigError, match="named 'absent'"):
        local.require_bundled("absent")


def test_both_bundled_models_are_pinned() -> None:
    names = [m.name for m in local.BUNDLED_MODELS]
    # the 1.5B first (chosen by bench/gloss_choice.py), when installed; the local extra's 0.5B next
    assert names[:2] == ["qwen2.5-coder-1.5b-instruct-q4km", "qwen2.5-coder-0.5b-instruct-q4km"]
    assert all(len(m.sha256) == 64 and m.licence == "Apache-2.0" for m in local.BUNDLED_MODELS)
