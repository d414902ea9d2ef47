"""--anonymous on LaTeX projects and compiled PDFs: a venue style in review mode prints
'Anonymous authors', so its \\author block is no finding; the camera-ready mode's is."""

from __future__ import annotations

from pathlib import Path

import pytest

from papermind.domain.check import CheckReport
from papermind.grounding.paper_check import CheckOptions, check_paper, check_project
from papermind.grounding.paper_check.review_mode import review_mode
from papermind.grounding.paper_check.spots import Spot
from papermind.ingest import parse_bytes
from papermind.ingest.hidden_grade import addresses_reviewer
from papermind.ingest.latex_project import read_project

BODY = r"""\title{A Study of Small Denoisers}
\author{Ada Lovelace \\ Analytical University \\ \texttt{ada@analytical.edu}}
\begin{document}
\maketitle
\begin{abstract}
We study small denoisers.
\end{abstract}
\section{Introduction}
Small denoisers are studied here in some detail.
\end{document}
"""
BLIND = CheckOptions(addresses=addresses_reviewer, anonymous=True)


def _project(tmp_path: Path, preamble: str) -> CheckReport:
    (tmp_path / "main.tex").write_text("\\documentclass{article}\n" + preamble + "\n" + BODY)
    return check_project(read_project(tmp_path / "main.tex"), BLIND)


def _identity(report: CheckReport) -> list[str]:
    return [f.kind for f in report.findings if f.kind == "author_identity"]


@pytest.mark.parametrize("preamble", [
    r"\usepackage{iclr2024_conference,times}",
    "\\usepackage{iclr2025_conference}\n% \\iclrfinalcopy",
    r"\usepackage{neurips_2024}",
    r"\usepackage[review]{acl}",
    r"\usepackage{icml2024}",
    r"\usepackage[submission]{aaai24}",
])
def test_a_style_in_review_mode_hides_the_author_block(tmp_path: Path, preamble: str) -> None:
    report = _project(tmp_path, preamble)
    assert _identity(report) == []
    assert any("Anonymous authors" in note for note in report.notes)


@pytest.mark.parametrize("preamble", [
    "\\usepackage{iclr2024_conference,times}\n\\iclrfinalcopy",
    r"\usepackage[final]{neurips_2024}",
    r"\usepackage[preprint]{neurips_2023}",
    r"\usepackage[final]{acl}",
    r"\usepackage[accepted]{icml2024}",
])
def test_the_camera_ready_mode_prints_the_authors(tmp_path: Path, preamble: str) -> None:
    report = _project(tmp_path, preamble)
    assert "author_identity" in _identity(report)
    (block,) = [f for f in report.findings if f.source and f.source.text.startswith("\\author")]
    assert "review mode" in block.fix


def test_no_known_style_keeps_the_author_block_finding(tmp_path: Path) -> None:
    assert "author_identity" in _identity(_project(tmp_path, r"\usepackage{times}"))
    assert review_mode([Spot(r"\documentclass[sigconf,anonymous]{acmart}")]) is not None


def test_a_compiled_first_page_printing_anonymous_authors_is_anonymous() -> None:
    def front(author_line: str) -> list[str]:
        text = (f"A Study of Small Denoisers\n\n{author_line}\n\ncontact: ada@analytical.edu\n\n"
                "Abstract\n\nWe study small denoisers in some detail here.\n")
        return _identity(check_paper(parse_bytes(text.encode(), "p.txt"), BLIND))
    assert front("Anonymous authors\nPaper under double-blind review") == []
    assert front("Anonymous Author(s)\nAffiliation") == []
    assert front("Ada Lovelace\nAnalytical University") == ["author_identity"]


def test_no_anonymity_finding_on_the_generated_iclr_projects_in_review_mode(shared_data: Path) -> None:
    folders = sorted((shared_data / "pdfs" / "generated_with_latex").glob("*/latex"))
    assert folders
    for folder in folders:
        main = next(iter(sorted(folder.glob("template.tex")) or sorted(folder.glob("*.tex"))))
        report = check_project(read_project(main), BLIND)
        assert [f for f in report.findings if f.aspect == "anonymity"] == [], folder
        assert any("Anonymous authors" in note for note in report.notes)


def test_what_review_mode_leaves_out_is_no_anonymity_finding(tmp_path: Path) -> None:
    body = BODY.replace(r"\author{Ada Lovelace", "\\author{Ada Lovelace\\thanks{Funded by the NSF "
                        "under grant No. 123.}").replace(
        "\\end{document}", "\\begin{ack}\nThis work was supported by NSF grant No. 42.\n"
        "\\end{ack}\n\\end{document}")
    (tmp_path / "main.tex").write_text("\\documentclass{article}\n\\usepackage{neurips_2024}\n"
                                       + body)
    blind = check_project(read_project(tmp_path / "main.tex"), BLIND)
    assert [f for f in blind.findings if f.aspect == "anonymity"] == []
    (tmp_path / "main.tex").write_text("\\documentclass{article}\n\\usepackage[final]{neurips_2024}\n"
                                       + body)
    final = check_project(read_project(tmp_path / "main.tex"), BLIND)
    assert {"author_identity", "funding_line"} <= {f.kind for f in final.findings}


def test_no_anonymity_finding_on_the_compiled_review_mode_pdfs(shared_data: Path) -> None:
    from papermind.ingest import parse_file

    pdfs = sorted((shared_data / "pdfs" / "generated_with_latex").glob("*/*.pdf"))[:3]
    assert pdfs
    for pdf in pdfs:
        report = check_paper(parse_file(pdf), BLIND)
        assert [f for f in report.findings if f.aspect == "anonymity"] == [], pdf
