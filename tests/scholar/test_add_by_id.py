"""`papermind add arxiv:... | doi:... | URL` against mock arXiv, OpenAlex and Crossref."""

from __future__ import annotations

from io import BytesIO

import pytest

from tests.cli.pdf_factory import paper_pdf
from tests.scholar.conftest import Mocks
from tests.support.cli import CliRunner, library_state


@pytest.fixture
def pdf(mocks: Mocks) -> bytes:
    buffer = BytesIO()
    paper_pdf(buffer, "Adam: A Method for Stochastic Optimization")
    data = buffer.getvalue()
    mocks.arxiv.pdf = mocks.openalex.pdf = data
    return data


def test_add_arxiv_id_stores_the_pdf_with_its_metadata(
        cli: CliRunner, mocks: Mocks, pdf: bytes, home: object) -> None:
    result = cli("add", "arxiv:1412.6980", "--online", "--json")
    assert result.code == 0, result.err
    added = result.json()[0]
    assert added["status"] == "added" and added["path"] == "arxiv:1412.6980"
    shown = cli("show", added["paper_id"], "--json").json()
    assert shown["arxiv"] == "1412.6980"
    assert shown["title"] == "Adam: A method for stochastic optimization"
    assert shown["authors"] == ["Diederik P. Kingma", "Jimmy Ba"]
    assert shown["year"] == 2014
    assert any(r.startswith("/api/query") and "id_list=1412.6980" in r for r in mocks.arxiv.requests)
    assert any(r.startswith("/pdf/1412.6980") for r in mocks.arxiv.requests)


def test_add_doi_fetches_the_open_access_location(cli: CliRunner, mocks: Mocks,
                                                  pdf: bytes) -> None:
    result = cli("add", "https://doi.org/10.5555/3295222.3295349", "--online", "--json")
    assert result.code == 0, result.err
    shown = cli("show", result.json()[0]["paper_id"], "--json").json()
    assert shown["doi"] == "10.5555/3295222.3295349"
    assert shown["title"] == "Attention is all you need"
    assert any(r.startswith("/files/") for r in mocks.openalex.requests)


def test_an_arxiv_url_is_read_as_its_id(cli: CliRunner, mocks: Mocks, pdf: bytes) -> None:
    result = cli("add", "https://arxiv.org/abs/1412.6980v9", "--online", "--json")
    assert result.code == 0, result.err
    assert result.json()[0]["status"] == "added"


@pytest.mark.parametrize("bad", ["arxiv:not-an-id", "doi:nonsense"])
def test_a_malformed_id_is_a_clear_error_and_sends_nothing(
        cli: CliRunner, mocks: Mocks, bad: str) -> None:
    result = cli("add", bad, "--online")
    assert result.code == 2
    assert "is not a" in result.err and bad in result.err
    assert mocks.sent() == 0


def test_an_unknown_arxiv_id_stores_nothing(cli: CliRunner, mocks: Mocks, pdf: bytes,
                                            home: object) -> None:
    result = cli("add", "arxiv:2401.99999", "--online")
    assert result.code != 0
    assert "arXiv has no paper 2401.99999" in result.err
    assert library_state(home)[0] == []  # type: ignore[arg-type]


def test_a_doi_without_open_access_pdf_stores_nothing(
        cli: CliRunner, mocks: Mocks, pdf: bytes, home: object) -> None:
    result = cli("add", "doi:10.1162/neco.1997.9.8.1735", "--online")
    assert result.code == 2
    assert "no open-access PDF found for doi:10.1162/neco.1997.9.8.1735" in result.err
    assert "nothing was stored" in result.err
    assert library_state(home)[0] == []  # type: ignore[arg-type]


def test_adding_by_id_is_offline_by_default(cli: CliRunner, mocks: Mocks) -> None:
    result = cli("add", "arxiv:1412.6980")
    assert result.code == 4 and "--online" in result.err
    assert mocks.sent() == 0


def test_a_failing_pdf_server_falls_through_to_the_next_location(
        cli: CliRunner, mocks: Mocks, pdf: bytes) -> None:
    from tests.scholar.mock_sources import Fault

    mocks.arxiv.fail_next(*[Fault("500", path="/pdf/") for _ in range(3)])
    result = cli("add", "arxiv:1412.6980", "--online", "--json")
    assert result.code == 0 and result.json()[0]["status"] == "added", result.err
    pdfs = [r for r in mocks.arxiv.requests if r.startswith("/pdf/")]
    assert pdfs == ["/pdf/1412.6980v1"] * 3 + ["/pdf/1412.6980"]  # the feed's link, then /pdf/{id}


def test_a_download_that_is_not_a_pdf_stores_nothing(cli: CliRunner, mocks: Mocks,
                                                      home: object) -> None:
    mocks.arxiv.pdf = b"<html>not a pdf</html>"
    result = cli("add", "arxiv:1412.6980", "--online", "--json")
    assert result.code == 2
    assert "no open-access PDF found for arxiv:1412.6980" in result.json()[0]["reason"]
    assert library_state(home)[0] == []  # type: ignore[arg-type]
