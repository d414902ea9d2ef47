"""`papermind refs` against local mock OpenAlex and Crossref: lookups per entry, requests per
run (a second run must send none) and CPU time, on the test bibliography (real, changed,
retracted, invented and unusable entries).

    PYTHONPATH=src:. .venv/bin/python bench/refs_requests.py

CPU time is reported (process time of this process: the mocks run in its threads too), as
wall-clock time is inflated by other work on shared machines.
"""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

from tests.scholar.mock_sources import MockCrossref, MockOpenAlex
from tests.scholar.record import PAPER, RECORD

from papermind.config import ScholarSettings, load_settings
from papermind.services.container import Container


def run_once(container: Container, paper: Path,
             mocks: tuple[MockOpenAlex, MockCrossref]) -> dict[str, object]:
    before = sum(len(m.requests) for m in mocks)
    cpu, wall = time.process_time(), time.perf_counter()
    report = container.references.check(str(paper))
    return {"entries": len(report.references),
            "max_lookups_per_entry": max(r.requests for r in report.references),
            "requests_sent": sum(len(m.requests) for m in mocks) - before,
            "statuses": report.counts(),
            "cpu_s": round(time.process_time() - cpu, 3),
            "wall_s": round(time.perf_counter() - wall, 3)}


def main() -> None:
    mocks = (MockOpenAlex(list(RECORD)), MockCrossref(list(RECORD)))
    with tempfile.TemporaryDirectory() as tmp:
        paper = Path(tmp) / "paper.md"
        paper.write_text(PAPER)
        scholar = ScholarSettings(allow_hosts=["127.0.0.1"], enabled=True, openalex_url=mocks[0].base_url,
                                  crossref_url=mocks[1].base_url, min_interval_s={})
        settings = load_settings(Path(tmp) / "home").model_copy(update={"scholar": scholar})
        with Container(settings) as container:
            first = run_once(container, paper, mocks)
            second = run_once(container, paper, mocks)
    for mock in mocks:
        mock.stop()
    print(json.dumps({"first_run": first, "second_run": second}, indent=2))


if __name__ == "__main__":
    main()
