"""CSL-JSON against the CSL-JSON schema, RIS records, and a review's cited works."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from papermind.domain import Paper, Reference
from papermind.domain.works import Person, WorkMetadata
from papermind.interchange.bibtex import parse_fields
from papermind.interchange.csl import to_csl
from papermind.interchange.ris import to_ris
from papermind.services.exports import citation_key, cited_works, render, resolved_entry_keys

SCHEMA = json.loads((Path(__file__).parent / "csl_data_schema.json").read_text())

WORKS = [
    ("lovelace2020counting", WorkMetadata(
        entry_type="inproceedings", title="Counting Tweets", year=2020, venue="Proc. of Tests",
        authors=[Person(family="Lovelace", given="Ada"), Person(family="Test Consortium")],
        doi="10.5555/abc.1", extra={"pages": "1--9", "volume": "3"})),
    ("turing2019", WorkMetadata(entry_type="misc", title="Storage", arxiv="1504.06236",
                                authors=[Person(family="Turing", given="Alan")], year=2019)),
    ("bare", WorkMetadata()),
]


def test_csl_json_validates_against_the_schema() -> None:
    items = json.loads(render(WORKS, "csl-json"))
    jsonschema.validate(items, SCHEMA)
    assert items[0]["type"] == "paper-conference" and items[0]["issued"] == {"date-parts": [[2020]]}
    assert items[0]["author"] == [{"family": "Lovelace", "given": "Ada"}, {"literal": "Test Consortium"}]
    assert items[1]["URL"] == "https://arxiv.org/abs/1504.06236"


def test_the_schema_rejects_what_csl_does_not_allow() -> None:
    """The schema is not a rubber stamp: a wrong type, a stray key and a bad name all fail."""
    good = to_csl("k", WORKS[0][1])
    for bad in ({**good, "type": "journal-paper"}, {**good, "journal": "x"},
                {**good, "author": [{"name": "Ada"}]}, {k: v for k, v in good.items() if k != "id"}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate([bad], SCHEMA)


def test_ris_records_start_with_ty_and_end_with_er() -> None:
    text = to_ris(WORKS[:2])
    records = text.strip().split("\n\n")
    assert len(records) == 2
    first = records[0].splitlines()
    assert first[0] == "TY  - CPAPER" and first[-1] == "ER  - "
    assert "AU  - Lovelace, Ada" in first and "AU  - Test Consortium" in first
    assert "DO  - 10.5555/abc.1" in first and "PY  - 2020" in first


def reviewed_paper() -> Paper:
    refs = [Reference(key="1", index=1, raw="A. Vaswani et al. Attention is all you need. NeurIPS, 2017.",
                      authors=["A. Vaswani"], title="Attention is all you need", year=2017,
                      venue="NeurIPS"),
            Reference(key="2", index=2, raw="J. Devlin. BERT. arXiv:1810.04805, 2019.",
                      authors=["J. Devlin"], title="BERT", year=2019, arxiv="1810.04805"),
            Reference(key="3", index=3, raw="Never cited by the review.", title="Uncited", year=2001)]
    return Paper(id="f" * 64, title="Reviewed", references=refs)


def constructed_report() -> dict[str, object]:
    """A review report's JSON as the panel writes it: comments with their reference checks."""
    return {"kind": "review", "paper_id": "f" * 64, "comments": [
        {"message_id": "m1", "verified": True, "references": [
            {"cited": "[1]", "resolved": True, "entry_key": "1", "entry": "A. Vaswani et al. ..."},
            {"cited": "Smith 2020", "resolved": False, "entry_key": None}]},
        {"message_id": "m2", "verified": False, "references": [
            {"cited": "Devlin (2019)", "resolved": True, "entry_key": "2"},
            {"cited": "[1]", "resolved": True, "entry_key": "1"}]},
        {"message_id": "m3", "references": [{"cited": "[3]", "resolved": False, "entry_key": "3"}]}],
        "unverified": [{"kind": "reference", "text": "Smith 2020"}],
        "grounding": {"references": [{"cited": "[2]", "verified": True, "reference": {"key": "2"}}]}}


def test_a_reviews_cited_works_are_exactly_the_resolved_entries() -> None:
    report = constructed_report()
    assert resolved_entry_keys(report) == ["1", "2"]
    works = cited_works(report, reviewed_paper())
    assert [m.title for _, m in works] == ["Attention is all you need", "BERT"]
    parsed = parse_fields(render(works, "bibtex"))
    assert set(parsed) == {"vaswani2017attention", "devlin2019bert"}
    assert parsed["vaswani2017attention"]["journal"] == "NeurIPS"
    assert parsed["devlin2019bert"]["eprint"] == "1810.04805"
    assert cited_works({"comments": []}, reviewed_paper()) == []


def test_generated_keys() -> None:
    assert citation_key(WORKS[0][1]) == "lovelace2020counting"
    assert citation_key(WorkMetadata(title="The Élan of Data", authors=[Person(family="Ng")])) == "ngelan"
    assert citation_key(WorkMetadata()) == "paper"
