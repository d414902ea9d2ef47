"""`papermind check --online` and `GET /api/papers/{id}/check?online=true` against the mock
OpenAlex and Crossref: entries not found, mismatched or retracted are check findings at the
entry's page and line; a source down is a note; offline nothing is sent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from papermind.api.app import create_app
from papermind.config import ScholarSettings, SearchSettings, load_settings
from tests.api.server import serve
from tests.scholar.conftest import Mocks
from tests.scholar.record import PAPER
from tests.support.cli import CliRunner

ONLINE_KINDS = {"reference_not_found", "reference_mismatch", "reference_retracted"}


@pytest.fixture
def paper(tmp_path: Path) -> Path:
    path = tmp_path / "paper.md"
    path.write_text(PAPER)
    return path


def entry_line(n: int) -> int:
    """The line on page 1 where bibliography entry [n] of PAPER starts."""
    return next(i for i, line in enumerate(PAPER.splitlines(), start=1)
                if line.startswith(f"[{n}] "))


def online(report: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """Entry number -> its online finding."""
    return {int(f["message"].split(":")[0].removeprefix("bibliography entry ")): f
            for f in report["findings"] if f["kind"] in ONLINE_KINDS}


def test_check_online_flags_invented_changed_and_retracted_entries(
        cli: CliRunner, mocks: Mocks, paper: Path) -> None:
    result = cli("check", paper, "--online", "--json")
    assert result.code == 0, result.err
    found = online(result.json())
    assert {n: (f["kind"], f["severity"]) for n, f in found.items()} == {
        3: ("reference_mismatch", "medium"), 4: ("reference_mismatch", "medium"),
        5: ("reference_retracted", "high"), 7: ("reference_not_found", "medium"),
        8: ("reference_not_found", "medium"), 10: ("reference_not_found", "medium")}
    invented, retracted = found[7], found[5]
    assert invented["message"] == \
        "bibliography entry 7: not found in OpenAlex, Crossref: check it"
    assert invented["aspect"] == "citations" and "Quantum gradient flows" in invented["text"]
    assert invented["anchor"]["page"] == 1 and invented["anchor"]["line_start"] == entry_line(7)
    assert invented["where"] == f"p. 1, l. {entry_line(7)}"
    assert retracted["anchor"]["line_start"] == entry_line(5)
    assert retracted["message"].startswith("bibliography entry 5: retracted")
    assert "year: cited '2001'" in found[3]["message"]
    assert "names another work" in found[10]["fix"]
    assert result.json()["findings"][0]["severity"] == "high"  # most severe first
    assert mocks.sent() > 0

    table = cli("check", paper, "--online")
    assert "not found in OpenAlex, Crossref: check it" in table.out
    assert cli("check", paper, "--online", "--fail-on", "high").code == 1


def test_check_is_offline_by_default(cli: CliRunner, mocks: Mocks, paper: Path) -> None:
    result = cli("check", paper, "--json")
    assert result.code == 0, result.err
    assert not online(result.json()) and result.json()["notes"] == []
    assert mocks.sent() == 0


def test_scholar_enabled_turns_the_online_check_on(
        cli: CliRunner, mocks: Mocks, paper: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAPERMIND_SCHOLAR__ENABLED", "true")
    assert 7 in online(cli("check", paper, "--json").json())


def test_a_source_that_is_down_is_a_note_not_a_finding(
        cli: CliRunner, mocks: Mocks, paper: Path) -> None:
    mocks.crossref.stop()
    out = cli("check", paper, "--online", "--json").json()
    assert any("Crossref is down" in note for note in out["notes"])
    assert not any("Crossref" in f["message"] and "down" in f["message"]
                   for f in out["findings"])
    assert online(out)[7]["message"] == "bibliography entry 7: not found in OpenAlex: check it"


BIB = """@inproceedings{vaswani2017,
  title = {Attention is All you Need},
  author = {Vaswani, Ashish and Shazeer, Noam and Parmar, Niki and Uszkoreit, Jakob},
  booktitle = {Advances in Neural Information Processing Systems},
  year = {2017}
}

@article{hochreiter1997,
  title = {Long Short-Term Memory},
  author = {Hochreiter, Sepp and Schmidhuber, J{\\"u}rgen},
  journal = {Neural Computation},
  year = {2001}
}

@inproceedings{rossi2023,
  title = {Quantum gradient flows for sparse retrieval augmentation},
  author = {Rossi, M. and Chen, L.},
  booktitle = {International Conference on Machine Learning},
  year = {2023}
}
"""
TEX = """\\documentclass{article}
\\begin{document}
Transformers \\cite{vaswani2017}, memories \\cite{hochreiter1997} and flows \\cite{rossi2023}.
\\bibliography{refs}
\\end{document}
"""


def test_a_latex_project_online_checks_its_bib_entries_at_their_lines(
        cli: CliRunner, mocks: Mocks, tmp_path: Path) -> None:
    project = tmp_path / "paper"
    project.mkdir()
    (project / "main.tex").write_text(TEX, encoding="utf-8")
    (project / "refs.bib").write_text(BIB, encoding="utf-8")
    out = cli("check", project, "--online", "--json").json()
    found = {f["where"]: f for f in out["findings"] if f["kind"] in ONLINE_KINDS}
    line = {key: i for i, text in enumerate(BIB.splitlines(), start=1)
            for key in ("hochreiter1997", "rossi2023") if f"{{{key}," in text}
    changed = found[f"refs.bib:{line['hochreiter1997']}"]
    invented = found[f"refs.bib:{line['rossi2023']}"]
    assert changed["kind"] == "reference_mismatch" and "year: cited '2001'" in changed["message"]
    assert changed["message"].startswith("entry 'hochreiter1997': ")
    assert changed["source"]["file"] == "refs.bib" and changed["anchor"] is None
    assert invented["kind"] == "reference_not_found"
    assert set(found) == {changed["where"], invented["where"]}  # the real entry passes
    assert not any("bibliography" in note for note in out["notes"])
    assert mocks.sent() > 0
    offline = cli("check", project, "--json").json()
    assert not any(f["kind"] in ONLINE_KINDS for f in offline["findings"])


def _settings(home: Path, mocks: Mocks, *, enabled: bool = False) -> Any:
    scholar = ScholarSettings(allow_hosts=["127.0.0.1"], enabled=enabled,
                              openalex_url=mocks.openalex.base_url,
                              crossref_url=mocks.crossref.base_url, min_interval_s={},
                              timeout_s=0.5, backoff_base_s=0.05, max_retries=2)
    return load_settings(home).model_copy(
        update={"search": SearchSettings(embedder="hashing"), "scholar": scholar})


def test_check_api_online_never_overrides_the_setting(home: Path, mocks: Mocks) -> None:
    with serve(create_app(_settings(home, mocks))) as base, \
            httpx.Client(base_url=base, timeout=60) as client:
        paper_id = client.post("/api/papers", files={"file": ("p.md", PAPER.encode())}).json()["id"]
        url = f"/api/papers/{paper_id[:10]}/check"
        offline = client.get(url).json()
        assert not online(offline) and mocks.sent() == 0
        asked = client.get(url, params={"online": "true"})
    assert asked.status_code == 409 and "nothing was sent" in asked.json()["detail"]
    assert mocks.sent() == 0


def test_check_api_online(home: Path, mocks: Mocks) -> None:
    with serve(create_app(_settings(home, mocks, enabled=True))) as base, \
            httpx.Client(base_url=base, timeout=60) as client:
        paper_id = client.post("/api/papers", files={"file": ("p.md", PAPER.encode())}).json()["id"]
        url = f"/api/papers/{paper_id[:10]}/check"
        out = client.get(url, params={"online": "true"}).json()
    found = online(out)
    assert found[5]["kind"] == "reference_retracted" and found[5]["severity"] == "high"
    assert found[7]["anchor"] == {**found[7]["anchor"], "paper_id": paper_id, "page": 1,
                                  "line_start": entry_line(7)}
    assert mocks.sent() > 0
