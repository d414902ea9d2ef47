"""What `check` needs around its report for code hosts and old drafts: where each finding's
file is (for SARIF and GitHub annotations), and ``--baseline``: only the findings an earlier
run did not have, so authors can adopt the check on a draft that already has some."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

from papermind.domain.check import CheckFinding, CheckReport, finding_fingerprint
from papermind.errors import InputError
from papermind.reports.check_formats import FINGERPRINT, Locate


def locator(target: str, cwd: Path | None = None) -> Locate:
    """Finding -> its file's path relative to ``cwd`` (the repository, in CI): a LaTeX
    project's file for its source lines, the checked file itself for a PDF/text file, None
    for a paper of the library (no file to point at)."""
    here = (cwd or Path.cwd()).resolve()
    path = Path(target).expanduser()
    if path.is_dir() or path.suffix.lower() == ".tex":
        root = (path if path.is_dir() else path.parent).resolve()
        return lambda f: _relative(root / f.source.file, here) if f.source is not None else None
    if path.is_file():
        shown = _relative(path.resolve(), here)
        return lambda f: shown
    return lambda f: None


def _relative(path: Path, here: Path) -> str:
    """A path under ``here`` as a relative POSIX path, any other as a file:// URI."""
    try:
        return path.relative_to(here).as_posix()
    except ValueError:
        return path.as_uri() if path.is_absolute() else Path(os.path.abspath(path)).as_uri()


def read_baseline(path: Path) -> Counter[str]:
    """The fingerprints of an earlier run's findings, from its ``--format json`` or
    ``--format sarif`` output (how many times each occurred)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"baseline not found: {path}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"baseline {path} is not the JSON of an earlier check "
                         f"(--format json or sarif): {exc}") from None
    if isinstance(data, dict) and isinstance(data.get("runs"), list):
        return Counter(_sarif_prints(data["runs"]))
    if isinstance(data, dict) and isinstance(data.get("findings"), list):
        return Counter(_json_print(f) for f in data["findings"] if isinstance(f, dict))
    raise InputError(f"baseline {path} has neither 'findings' (--format json) nor 'runs' "
                     "(--format sarif)")


def _sarif_prints(runs: list[Any]) -> list[str]:
    return [str(r["partialFingerprints"][FINGERPRINT]) for run in runs if isinstance(run, dict)
            for r in run.get("results") or []
            if isinstance(r, dict) and FINGERPRINT in (r.get("partialFingerprints") or {})]


def _json_print(f: dict[str, Any]) -> str:
    source = f.get("source") if isinstance(f.get("source"), dict) else {}
    return finding_fingerprint(str(f.get("kind", "")), str((source or {}).get("file", "")),
                               str(f.get("text", "")), str(f.get("message", "")))


def since_baseline(report: CheckReport, baseline: Counter[str]) -> CheckReport:
    """``report`` less the findings the baseline had (each counted once per occurrence)."""
    left = Counter(baseline)
    kept: list[CheckFinding] = []
    for f in report.findings:
        key = f.fingerprint()
        if left[key] > 0:
            left[key] -= 1
        else:
            kept.append(f)
    known = len(report.findings) - len(kept)
    note = f"{known} finding(s) of the baseline are not shown (--baseline)"
    return report.model_copy(update={"findings": kept,
                                     "notes": [*report.notes, note] if known else report.notes})
