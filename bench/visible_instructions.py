"""False alarms of the visible-instruction finding on real papers (issue 41).

Parses the 60 ICLR 2022 submissions of ../shared/data/iclr_bench (text) and every PDF under
../shared/data/pdfs, and prints each 'visible_instruction' finding (none is expected: these
papers address no reviewer or model) with the totals and the CPU time.

    .venv/bin/python bench/visible_instructions.py

$PAPERMIND_SHARED_DATA overrides where ../shared/data is looked for (e.g. from a worktree).
Recorded (2026-12-04): 60 texts -> 0 findings; 53 of 54 PDFs parsed (one refused) -> 0.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
DATA = Path(os.environ.get("PAPERMIND_SHARED_DATA") or ROOT.parent / "shared" / "data")


def count(paths: list[Path]) -> tuple[int, int]:
    """(files parsed, findings) over ``paths``, printing each finding."""
    from papermind.errors import PapermindError
    from papermind.ingest.parse import parse_bytes

    parsed = fired = 0
    for path in paths:
        try:
            paper = parse_bytes(path.read_bytes(), path.name)
        except PapermindError as err:
            print(f"refused {path.name}: {err}")
            continue
        parsed += 1
        for finding in (f for f in paper.findings if f.kind == "visible_instruction"):
            fired += 1
            print(f"{path.relative_to(DATA)} p. {finding.page}: {finding.text[:120]}")
    return parsed, fired


def main() -> None:
    if not DATA.is_dir():
        sys.exit(f"no shared data at {DATA} (set PAPERMIND_SHARED_DATA)")
    started = time.process_time()
    texts = sorted((DATA / "iclr_bench" / "papers").glob("*.txt"))
    pdfs = sorted((DATA / "pdfs").rglob("*.pdf"))
    for name, paths in (("iclr_bench texts", texts), ("PDFs", pdfs)):
        parsed, fired = count(paths)
        print(f"{name}: {parsed}/{len(paths)} parsed, {fired} visible_instruction findings")
    print(f"CPU {time.process_time() - started:.1f} s")


if __name__ == "__main__":
    main()
