"""The OpenAPI schema names a response model for every JSON endpoint (no bare objects)."""

from __future__ import annotations

from pathlib import Path

from papermind.api.app import create_app
from papermind.config import Settings

NAMED = {("/api/papers", "post"): "Uploaded", ("/api/papers/{paper_id}", "get"): "PaperDetail",
         ("/api/papers/{paper_id}", "delete"): "Removed",
         ("/api/papers/{paper_id}/verify", "post"): "Verification",
         ("/api/jobs", "post"): "Submitted", ("/api/jobs/{job_id}", "get"): "JobOut",
         ("/api/jobs/{job_id}/cancel", "post"): "JobOut", ("/health", "get"): "Health"}
LISTS = {("/api/papers", "get"): "PaperRecordOut", ("/api/search", "get"): "SearchHit",
         ("/api/jobs", "get"): "JobOut", ("/api/jobs/{job_id}/events", "get"): "JobEvent"}


def _schema(home: Path, path: str, method: str) -> dict[str, object]:
    spec = create_app(Settings(home=home)).openapi()
    op = spec["paths"][path][method]
    ok = op["responses"].get("200") or op["responses"].get("201") or op["responses"]["202"]
    schema: dict[str, object] = ok["content"]["application/json"]["schema"]
    return schema


def test_every_json_endpoint_names_its_response_model(home: Path) -> None:
    for (path, method), name in NAMED.items():
        assert _schema(home, path, method) == {"$ref": f"#/components/schemas/{name}"}, path
    for (path, method), name in LISTS.items():
        schema = _schema(home, path, method)
        assert schema["type"] == "array", path
        assert schema["items"] == {"$ref": f"#/components/schemas/{name}"}, path


def test_response_models_document_their_fields(home: Path) -> None:
    components = create_app(Settings(home=home)).openapi()["components"]["schemas"]
    job = components["JobOut"]["properties"]
    assert {"id", "status", "links", "usage"} <= set(job)
    assert "file" not in components["PaperRecordOut"]["properties"]  # no server paths
