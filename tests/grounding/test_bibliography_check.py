"""`citation_without_entry` on text citations only: table rows, system names and list
labels with a year are no missing entry (paper_check.bibliography)."""

from __future__ import annotations

from pathlib import Path

import pytest

from papermind.domain.check import CheckFinding
from papermind.grounding.paper_check import CheckOptions, check_paper
from papermind.ingest import parse_bytes, parse_file
from papermind.ingest.hidden_grade import addresses_reviewer

REFERENCES = ("## References\n\n"
              "- Smith, A. and Lee, B. A first title. In Proc. ICML, 2020.\n"
              "- Lin, D. and Pantel, P. Discovery of inference rules. In KDD, 2001.\n"
              "- Wu, X. Third title. In NeurIPS, 2019.\n")


def _findings(body: str) -> list[CheckFinding]:
    text = f"# A Study\n\n## 1 Introduction\n\nWe build on (Smith and Lee, 2020) and Wu (2019).\n\n{body}\n\n{REFERENCES}"
    report = check_paper(parse_bytes(text.encode(), "draft.md"), CheckOptions(addresses=addresses_reviewer))
    return [f for f in report.findings if f.kind == "citation_without_entry"]


def test_a_cited_work_missing_from_the_bibliography_is_medium() -> None:
    """The strongest level on a parsed paper: the check table caps the kind at medium
    (measured on labelled real papers, bench/results/real_papers.md)."""
    found = _findings("As shown before (Vellacott et al., 2017), this holds.")
    assert [(f.severity, f.message.split(" matches")[0]) for f in found] == [
        ("medium", "(Vellacott et al., 2017)")]


def test_a_listed_author_cited_with_another_year_is_medium() -> None:
    found = _findings("Lin and Pantel (2002) derive inference rules from parsed text.")
    assert [f.severity for f in found] == ["medium"]


def test_table_rows_and_cells_with_a_year_are_no_citation() -> None:
    table = ("| Model | F1 |\n| --- | --- |\n| PubMed (2018) | 71.2 |\n"
             "| Transformer (2017) | 80.1 |\n| Hendricks (2016) | 60.0 |\n")
    assert _findings(table) == []


def test_system_dataset_and_metric_names_with_a_year_are_low_at_most() -> None:
    text = ("Scores come from BERTScore-DB-XL (2020) and abstracts from PubMed (2018); "
            "the data are on arXiv (2018) and came with GPT-3 (2020).\n\n"
            "- Transformer (2017): the base model we compare with.\n")
    found = _findings(text)
    assert found and all(f.severity == "low" for f in found)
    assert not any("Xiv" in f.message for f in found)


def test_no_high_missing_entry_on_the_real_markdown_papers(shared_data: Path) -> None:
    """Docling's Markdown of 20 NeurIPS papers: before the list items were read one by one,
    `check` said 76 HIGH `citation_without_entry`, every one false (read by hand); their
    citations all resolve now, so any above LOW here (the kind is capped at MEDIUM on a
    parsed paper) is a regression."""
    folder = shared_data / "neurips_md"
    if not folder.is_dir():
        pytest.skip("no neurips_md in the shared data")
    high = [(md.name, f.message) for md in sorted(folder.glob("*.md"))
            for f in check_paper(parse_file(md), CheckOptions(addresses=addresses_reviewer)).findings
            if f.kind == "citation_without_entry" and f.severity != "low"]
    assert high == []


def test_missing_entries_are_low_when_most_citations_match_nothing() -> None:
    text = " ".join(f"Work {i} (Vellacott et al., {2000 + i}) says so." for i in range(10))
    found = _findings(text)
    assert len(found) == 10 and {f.severity for f in found} == {"low"}
    assert "may not have been read in full" in found[0].message
