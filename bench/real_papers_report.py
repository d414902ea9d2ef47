"""bench/results/real_papers.md from the bench's result (bench/real_papers.py): metadata
figures per input form, precision per kind and severity (against an earlier run where one
is given), and the findings labelled false or useless, with why."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

FORMS = {"pdf": "PDF", "md": "Markdown", "latex": "LaTeX project"}


def metadata_figures(inputs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """form (and 'all') -> right / scored for titles, exact author sets, reference counts,
    and the number of parsed 'authors' that are markers or headings (inputs with no gold
    metadata left out)."""
    out: dict[str, dict[str, Any]] = {}
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in inputs:
        if any(key in row for key in ("title_right", "authors_exact", "references_right")):
            groups[row["form"]].append(row)
            groups["all"].append(row)
    for form, rows in groups.items():
        figures: dict[str, Any] = {"inputs": len(rows)}
        for key in ("title_right", "authors_exact", "references_right"):
            scored = [r[key] for r in rows if key in r]
            figures[key] = f"{sum(scored)}/{len(scored)}"
        figures["authors_bad"] = sum(r.get("authors_bad", 0) for r in rows)
        out[form] = figures
    return out


def _precision_rows(now: dict[str, Any], old: dict[str, Any] | None) -> list[str]:
    """The precision table; with an earlier run's table, its precision and count beside."""
    lines = ["| kind / severity | true | false | useless | unlabelled | precision |"
             + (" before (findings) |" if old is not None else ""),
             "|---|---|---|---|---|---|" + ("---|" if old is not None else "")]
    empty = {"true": 0, "false": 0, "useless": 0, "unlabelled": 0, "precision": None}
    for key in sorted(set(now) | set(old or {}), key=lambda k: (k.startswith("all/"), k)):
        row = now.get(key, empty)
        cells = [row["true"], row["false"], row["useless"], row["unlabelled"],
                 _pct(row["precision"])]
        if old is not None:
            was = old.get(key)
            cells.append(f"{_pct(was['precision'])} ({sum(was[k] for k in _COUNTED)})"
                         if was else "—")
        lines.append(f"| {key} | " + " | ".join(str(c) for c in cells) + " |")
    return lines


_COUNTED = ("true", "false", "useless", "unlabelled")


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:.0%}"


def _metadata_rows(now: dict[str, Any], before: dict[str, Any] | None) -> list[str]:
    old = metadata_figures(before["inputs"]) if before else {}
    lines = ["| form | inputs | title exact | author set exact | reference count ±5 % "
             "| bad 'authors' |" + (" before (title / authors / refs / bad) |" if before else ""),
             "|---|---|---|---|---|---|" + ("---|" if before else "")]
    for form, f in sorted(metadata_figures(now["inputs"]).items(), key=lambda x: x[0] == "all"):
        cells = [FORMS.get(form, form), f["inputs"], f["title_right"], f["authors_exact"],
                 f["references_right"], f["authors_bad"]]
        if before:
            was = old.get(form)
            cells.append(" / ".join(str(was[k]) for k in ("title_right", "authors_exact",
                                                         "references_right", "authors_bad"))
                         if was else "—")
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    return lines


def _input_rows(inputs: list[dict[str, Any]]) -> list[str]:
    lines = ["| input | title | authors (matched/gold, bad) | references (parsed) | CPU s |",
             "|---|---|---|---|---|"]
    for r in inputs:
        title = {True: "ok", False: f"**no**: {r.get('parsed_title', '')[:60]!r}"}.get(
            r.get("title_right"), "")
        authors = (f"{'ok' if r['authors_exact'] else '**no**'} {r['authors_matched']}/"
                   f"{r['authors_gold']}, {r['authors_bad']}") if "authors_exact" in r else ""
        refs = (f"{'ok' if r['references_right'] else '**no**'} ({r['parsed_references']})"
                if "references_right" in r else "")
        if "error" in r:
            title = f"**refused**: {r['error'][:80]}"
        lines.append(f"| {r['input']} | {title} | {authors} | {refs} | {r['cpu_s']} |")
    return lines


def _grouped(findings: list[dict[str, Any]]) -> list[str]:
    """One line per label, kind, severity, input and reason, with the places."""
    groups: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for f in findings:
        groups[(f["label"], f["kind"], f["severity"], f["input"], f.get("why", ""))].append(
            f["where"] or "whole paper")
    return [f"- {label}: {kind} ({severity}) {name}, {len(places)}× "
            f"({'; '.join(places[:3])}{'; ...' if len(places) > 3 else ''}): {why}"
            for (label, kind, severity, name, why), places in groups.items()]


def render(result: dict[str, Any], before: dict[str, Any] | None = None) -> str:
    """The whole Markdown page."""
    findings = result["findings"]
    wrong = [f for f in findings if f["label"] in ("false", "useless")]
    todo = [f for f in findings if f["label"] is None]
    out = ["# Real-paper bench (labelled by reading the papers)", "",
           f"Command: `.venv/bin/python {result['command']}` on {result.get('code', '?')} — "
           f"{len(result['inputs'])} inputs, "
           f"{len(findings)} HIGH/MEDIUM findings, {len(todo)} unlabelled, "
           f"CPU {result['cpu_s']} s in all.",
           "Gold: bench/real_papers_gold.jsonl; labels: bench/real_papers_labels.jsonl.", ""]
    if before:
        out += [f"Before: `{before['command']}` on {before.get('code', '?')} "
                "(bench/results/real_papers_before.json).", ""]
    out += ["## Titles, authors, reference counts", "", *_metadata_rows(result, before), "",
            "## Precision of HIGH and MEDIUM findings", "",
            "precision = true / (true + false + useless); unlabelled findings are left out.",
            "", *_precision_rows(result["precision"], before["precision"] if before else None),
            "",
            "By input form (pdf, md: Markdown, txt: text extracted from PDF, latex: LaTeX project), which the severity "
            "calibration of the check table reads:", "",
            *_precision_rows(result["precision_by_form"],
                             before.get("precision_by_form") if before else None), "",
            "## Findings labelled false or useless", ""]
    out += _grouped(wrong) or ["none"]
    out += ["", "## Unlabelled findings", ""]
    out += [f"- {f['kind']} ({f['severity']}) {f['input']} {f['where']}: {f['message'][:120]}"
            for f in todo] or ["none"]
    out += ["", "## Per input", "", *_input_rows(result["inputs"]), ""]
    return "\n".join(out)
