"""The paper's own DOI and arXiv id, from its first page (never from its bibliography)."""

from __future__ import annotations

from pathlib import Path

from papermind.ingest import parse_bytes
from papermind.ingest.identifiers import find_identifiers, normalize_arxiv, normalize_doi
from tests.cli.pdf_factory import paper_pdf


def test_normalize_doi_and_arxiv() -> None:
    assert normalize_doi("https://doi.org/10.1145/3183713.3196909.") == "10.1145/3183713.3196909"
    assert normalize_doi("doi:10.1000/ABC(1)") == "10.1000/abc(1"
    assert normalize_doi("DOI: 10.18653/v1/N18-3011") == "10.18653/v1/n18-3011"
    assert normalize_doi("no doi here") is None and normalize_doi(None) is None
    assert normalize_arxiv("arXiv:1706.03762v5") == "1706.03762"
    assert normalize_arxiv("https://arxiv.org/abs/2101.00001v2") == "2101.00001"
    assert normalize_arxiv("1504.06236") == "1504.06236"
    assert normalize_arxiv("hep-th/9901001v1") == "hep-th/9901001"
    assert normalize_arxiv("10.1000/abc") is None


def test_the_arxiv_side_stamp_and_a_doi_line() -> None:
    found = find_identifiers(["arXiv:1706.03762v5 [cs.CL] 6 Dec 2017", "Attention Is All You Need",
                              "DOI 10.5555/Example.42"])
    assert (found.doi, found.arxiv) == ("10.5555/example.42", "1706.03762")
    assert find_identifiers(["Just a title", "and authors"]).doi is None


def test_ingestion_takes_the_front_page_identifiers_not_the_references(tmp_path: Path) -> None:
    body = ["arXiv:2101.00001v2 [cs.LG] 3 Jan 2021", "Abstract", "We study DOIs.",
            "1 Introduction", "Text.", "References",
            "[1] A. Author. Cited work. doi:10.9999/cited.1, 2020."]
    path = paper_pdf(tmp_path / "p.pdf", "A Paper With Identifiers", body=body)
    paper = parse_bytes(Path(str(path)).read_bytes(), "p.pdf")
    assert paper.arxiv == "2101.00001"
    assert paper.doi is None  # the only DOI printed is a cited work's
