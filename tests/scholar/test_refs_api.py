"""GET /api/papers/{id}/references (the `papermind refs --json` report) and the web UI's
References tab."""

from __future__ import annotations

from pathlib import Path

import httpx

from papermind.api.app import create_app
from papermind.config import ScholarSettings, SearchSettings, load_settings
from tests.api.server import serve
from tests.scholar.conftest import Mocks
from tests.scholar.record import EXPECTED, PAPER


def _settings(home: Path, mocks: Mocks, enabled: bool) -> object:
    scholar = ScholarSettings(allow_hosts=["127.0.0.1"], enabled=enabled, openalex_url=mocks.openalex.base_url,
                              crossref_url=mocks.crossref.base_url, min_interval_s={})
    return load_settings(home).model_copy(
        update={"search": SearchSettings(embedder="hashing"), "scholar": scholar})


def test_references_over_http(home: Path, mocks: Mocks) -> None:
    with serve(create_app(_settings(home, mocks, True))) as base, \
            httpx.Client(base_url=base, timeout=60) as client:
        paper_id = client.post("/api/papers", files={"file": ("p.md", PAPER.encode())}).json()["id"]
        report = client.get(f"/api/papers/{paper_id[:10]}/references").json()
        assert report["paper_id"] == paper_id
        again = client.get(f"/api/papers/{paper_id}/references?online=true").json()
        assert again["references"] == report["references"]
        assert {r["index"]: r["status"] for r in report["references"]} == \
            {i: status for i, (status, _, _) in EXPECTED.items()}
        assert client.get("/api/papers/feedface00/references").status_code == 404


def test_references_are_refused_offline(home: Path, mocks: Mocks) -> None:
    with serve(create_app(_settings(home, mocks, False))) as base, \
            httpx.Client(base_url=base, timeout=60) as client:
        paper_id = client.post("/api/papers", files={"file": ("p.md", PAPER.encode())}).json()["id"]
        for asked in ("", "?online=true"):  # a client cannot override the server's setting
            refused = client.get(f"/api/papers/{paper_id}/references{asked}")
            assert refused.status_code == 409
            assert refused.headers["content-type"].startswith("application/problem+json")
            assert "scholarly sources are off on this server" in refused.json()["detail"]
            assert "--online" not in refused.text  # a CLI flag means nothing to an API client
    assert mocks.sent() == 0


def test_the_endpoint_names_its_response_model(home: Path) -> None:
    spec = create_app(load_settings(home)).openapi()
    ok = spec["paths"]["/api/papers/{paper_id}/references"]["get"]["responses"]["200"]
    assert ok["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ReferencesOut"}


def test_the_references_tab(home: Path, mocks: Mocks) -> None:
    with serve(create_app(_settings(home, mocks, True))) as base, \
            httpx.Client(base_url=base, timeout=60) as client:
        paper_id = client.post("/api/papers", files={"file": ("p.md", PAPER.encode())}).json()["id"]
        assert f'href="/papers/{paper_id}/references"' in client.get(f"/papers/{paper_id}").text
        page = client.get(f"/papers/{paper_id}/references")
        assert page.status_code == 200
        assert "not found in OpenAlex, Crossref: check it" in page.text
        assert page.text.count('class="ref-verified') == 4
        assert 'class="ref-verified ref-retracted"' in page.text
        assert "year: cited “2001”, found “1997”" in page.text
        counts = page.text.split('id="ref-counts">', 1)[1].split("</p>", 1)[0]
        assert counts == ("10 entries: 4 verified, 2 with a field that differs, 3 not found, "
                          "1 not checked; 1 retracted.")


def test_the_references_tab_offline_sends_nothing(home: Path, mocks: Mocks) -> None:
    with serve(create_app(_settings(home, mocks, False))) as base, \
            httpx.Client(base_url=base, timeout=60) as client:
        paper_id = client.post("/api/papers", files={"file": ("p.md", PAPER.encode())}).json()["id"]
        page = client.get(f"/papers/{paper_id}/references")
        assert page.status_code == 200 and "scholarly sources are off" in page.text
    assert mocks.sent() == 0


def test_one_click_adds_a_scholarly_result(home: Path, mocks: Mocks) -> None:
    from io import BytesIO

    from tests.cli.pdf_factory import paper_pdf

    buffer = BytesIO()
    paper_pdf(buffer, "Attention is all you need")
    mocks.openalex.pdf = buffer.getvalue()
    with serve(create_app(_settings(home, mocks, True))) as base, \
            httpx.Client(base_url=base, timeout=60) as client:
        added = client.post("/ui/add-by-id",
                            data={"identifier": "https://doi.org/10.5555/3295222.3295349"})
        assert added.status_code == 303 and added.headers["location"].startswith("/papers/")
        paper_id = added.headers["location"].removeprefix("/papers/")
        assert client.get(f"/api/papers/{paper_id}").json()["record"]["title"] == \
            "Attention is all you need"
        bad = client.post("/ui/add-by-id", data={"identifier": "doi:nonsense"})
        assert bad.status_code == 303 and "is%20not%20a%20DOI" in bad.headers["location"]
