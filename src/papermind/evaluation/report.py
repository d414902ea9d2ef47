"""One HTML page per evaluation run: settings, headline metrics, published references
(labelled as theirs), per-item rows and plots (matplotlib, the optional ``eval`` extra;
without it the page says so and keeps its tables)."""

from __future__ import annotations

import html
import json
import math
from typing import Any

from papermind.evaluation import plots

_STYLE = ("body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;color:#222}"
          "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;"
          "padding:3px 8px;font-size:13px;text-align:left}.theirs{color:#555;font-style:italic}"
          ".flag{color:#b00;font-weight:bold}figure{display:inline-block;margin:0 1em}")


def render(run: dict[str, Any], results: list[dict[str, Any]],
           flags: list[str] | None = None) -> str:
    """The page for ``run`` (id, kind, settings, summary) and its per-item ``results``."""
    summary = run.get("summary", {})
    parts = [f"<!doctype html><meta charset='utf-8'><title>eval {_e(run['id'])}</title>",
             f"<style>{_STYLE}</style><h1>{_e(run['kind'])} evaluation {_e(run['id'])}</h1>"]
    if run.get("settings", {}).get("demo_quality"):
        parts.append("<p class='flag'>demo quality: the bundled local model</p>")
    parts += [f"<p class='flag'>{_e(f)}</p>" for f in flags or []]
    parts.append(_metrics_table(summary.get("metrics", {})))
    if summary.get("roles"):
        parts.append("<h2>Per reviewer role</h2>" + _roles_table(summary["roles"]))
    if summary.get("flaws"):
        parts.append("<h2>Planted flaws: recall</h2>" + _flaws_table(summary["flaws"]))
    if summary.get("published"):
        parts.append("<h2>Published references (theirs, not ours)</h2>"
                     + _published(summary["published"]))
    figures = plots.figures(run["kind"], summary, results)
    parts.append("<h2>Plots</h2>" + ("".join(f"<figure>{svg}<figcaption>{_e(cap)}</figcaption>"
                                             f"</figure>" for cap, svg in figures)
                                     if figures is not None else
                                     "<p>plots need matplotlib: pip install 'papermind[eval]'</p>"))
    parts.append("<h2>Items</h2>" + _items(results))
    parts.append("<h2>Settings</h2><pre>" + _e(json.dumps(run.get("settings", {}), indent=2))
                 + "</pre><h2>Usage</h2><pre>" + _e(json.dumps(summary.get("usage", {})))
                 + "</pre>")
    return "\n".join(parts)


def number(value: object) -> str:
    if isinstance(value, float):
        return "n/a" if math.isnan(value) else f"{value:.3f}"
    return str(value)


def _metrics_table(metrics: dict[str, Any]) -> str:
    rows = "".join(f"<tr><td>{_e(k)}</td><td>{number(v.get('value'))}</td>"
                   f"<td>{_interval(v)}</td><td>{v.get('n', '')}</td></tr>"
                   for k, v in metrics.items())
    return f"<table><tr><th>metric</th><th>ours</th><th>95% interval</th><th>n</th></tr>{rows}</table>"


def _interval(v: dict[str, Any]) -> str:
    if "low" in v:
        return f"[{number(v['low'])}, {number(v['high'])}]"
    if "median" in v:
        return f"min {number(v['min'])}, median {number(v['median'])}, max {number(v['max'])}"
    return ""


def _roles_table(roles: dict[str, Any]) -> str:
    rows = "".join(f"<tr><td>{_e(r)}</td><td>{v['papers']}</td>"
                   + "".join(f"<td>{number(v[k]['value'])} {_interval(v[k])}</td>"
                             for k in ("auc", "pearson", "spearman")) + "</tr>"
                   for r, v in roles.items())
    return ("<table><tr><th>role</th><th>papers</th><th>AUC</th><th>Pearson</th>"
            f"<th>Spearman</th></tr>{rows}</table>")


def _flaws_table(flaws: dict[str, Any]) -> str:
    rows = "".join(f"<tr><td>{_e(k)}</td><td>{v['planted']}</td><td>{number(v['code'])}</td>"
                   f"<td>{number(v['panel'])}</td></tr>" for k, v in flaws["by_kind"].items())
    total = (f"<tr><th>all</th><th>{flaws['planted']}</th><th>{number(flaws['code'])}</th>"
             f"<th>{number(flaws['panel'])}</th></tr>")
    return ("<table><tr><th>kind</th><th>planted</th><th>code alone</th><th>panel</th></tr>"
            f"{rows}{total}</table>")


def _published(items: list[dict[str, Any]]) -> str:
    rows = "".join(f"<tr class='theirs'><td>{_e(p['metric'])}</td><td>{_e(p['value'])}</td>"
                   f"<td>{_e(p['who'])}</td><td>{_e(p['source'])}</td></tr>" for p in items)
    return ("<table><tr><th>metric</th><th>theirs</th><th>who</th><th>source</th></tr>"
            f"{rows}</table>")


def _items(results: list[dict[str, Any]]) -> str:
    keys = sorted({k for r in results for k in r.get("scores", {})})
    head = "".join(f"<th>{_e(k)}</th>" for k in keys)
    rows = "".join(
        f"<tr><td>{_e(str(r.get('paper') or r.get('id')))}</td>"
        + "".join(f"<td>{number(r['scores'].get(k, ''))}</td>" for k in keys) + "</tr>"
        for r in results)
    return f"<table><tr><th>item</th>{head}</tr>{rows}</table>"


def _e(text: object) -> str:
    return html.escape(str(text))
