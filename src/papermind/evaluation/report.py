"""One HTML page per evaluation run: settings, headline metrics, published references
(labelled as theirs), per-item rows and plots (matplotlib, the optional ``eval`` extra;
without it the page says so and keeps its tables). Headings, column names, metric names and
plot labels come from the ``reports`` message catalogue in the run's report language."""

from __future__ import annotations

import html
import json
import math
from typing import Any

from papermind.evaluation import plots
from papermind.i18n import Translator, translator

_STYLE = ("body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;color:#222}"
          "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;"
          "padding:3px 8px;font-size:13px;text-align:left}.theirs{color:#555;font-style:italic}"
          ".flag{color:#b00;font-weight:bold}figure{display:inline-block;margin:0 1em}")


def render(run: dict[str, Any], results: list[dict[str, Any]],
           flags: list[str] | None = None, lang: str = "en") -> str:
    """The page for ``run`` (id, kind, settings, summary) and its per-item ``results``, its
    labels in ``lang`` (English where the catalogue has no message)."""
    t = translator("reports", lang)
    summary = run.get("summary", {})
    title = t("{kind} evaluation {run}", kind=t(run["kind"]), run=run["id"])
    parts = [f"<!doctype html><html lang='{_e(t.language)}'><meta charset='utf-8'>"
             f"<title>{_e(title)}</title><style>{_STYLE}</style><h1>{_e(title)}</h1>"]
    if run.get("settings", {}).get("demo_quality"):
        parts.append(f"<p class='flag'>{_e(t('demo quality: the bundled local model'))}</p>")
    parts += [f"<p class='flag'>{_e(f)}</p>" for f in flags or []]
    parts.append(_metrics_table(summary.get("metrics", {}), t))
    if summary.get("roles"):
        parts.append(f"<h2>{_e(t('Per reviewer role'))}</h2>" + _roles_table(summary["roles"], t))
    if summary.get("flaws"):
        parts.append(f"<h2>{_e(t('Planted flaws: recall'))}</h2>" + _flaws_table(summary["flaws"], t))
    if summary.get("published"):
        parts.append(f"<h2>{_e(t('Published references (theirs, not ours)'))}</h2>"
                     + _published(summary["published"], t))
    parts.append(f"<h2>{_e(t('Plots'))}</h2>" + _figures(run["kind"], summary, results, t))
    parts.append(f"<h2>{_e(t('Items'))}</h2>" + _items(results, t))
    parts.append(f"<h2>{_e(t('Settings'))}</h2><pre>"
                 + _e(json.dumps(run.get("settings", {}), indent=2))
                 + f"</pre><h2>{_e(t('Usage'))}</h2><pre>"
                 + _e(json.dumps(summary.get("usage", {}))) + "</pre>")
    return "\n".join(parts)


def _figures(kind: str, summary: dict[str, Any], results: list[dict[str, Any]],
             t: Translator) -> str:
    figures = plots.figures(kind, summary, results, t)
    if figures is None:
        return f"<p>{_e(t('plots need matplotlib: pip install {extra}', extra=EXTRA))}</p>"
    return "".join(f"<figure>{svg}<figcaption>{_e(cap)}</figcaption></figure>"
                   for cap, svg in figures)


EXTRA = "'papermind[eval]'"


def metric_name(key: str, t: Translator) -> str:
    """A metric's display name ('decision_accuracy' -> 'decision accuracy', translated)."""
    return t(key.replace("_", " "))


def number(value: object) -> str:
    if isinstance(value, float):
        return "n/a" if math.isnan(value) else f"{value:.3f}"
    return str(value)


def _metrics_table(metrics: dict[str, Any], t: Translator) -> str:
    rows = "".join(f"<tr><td>{_e(metric_name(k, t))}</td><td>{number(v.get('value'))}</td>"
                   f"<td>{_interval(v, t)}</td><td>{v.get('n', '')}</td></tr>"
                   for k, v in metrics.items())
    return _table([t("metric"), t("ours"), t("95% interval"), "n"], rows)


def _interval(v: dict[str, Any], t: Translator) -> str:
    if "low" in v:
        return f"[{number(v['low'])}, {number(v['high'])}]"
    if "median" in v:
        return _e(t("min {low}, median {median}, max {high}", low=number(v["min"]),
                    median=number(v["median"]), high=number(v["max"])))
    return ""


def _roles_table(roles: dict[str, Any], t: Translator) -> str:
    rows = "".join(f"<tr><td>{_e(r)}</td><td>{v['papers']}</td>"
                   + "".join(f"<td>{number(v[k]['value'])} {_interval(v[k], t)}</td>"
                             for k in ("auc", "pearson", "spearman")) + "</tr>"
                   for r, v in roles.items())
    return _table([t("role"), t("papers"), "AUC", "Pearson", "Spearman"], rows)


def _flaws_table(flaws: dict[str, Any], t: Translator) -> str:
    rows = "".join(f"<tr><td>{_e(t(k.replace('_', ' ')))}</td><td>{v['planted']}</td>"
                   f"<td>{number(v['code'])}</td><td>{number(v['panel'])}</td></tr>"
                   for k, v in flaws["by_kind"].items())
    total = (f"<tr><th>{_e(t('all'))}</th><th>{flaws['planted']}</th>"
             f"<th>{number(flaws['code'])}</th><th>{number(flaws['panel'])}</th></tr>")
    return _table([t("kind"), t("planted"), t("code alone"), t("panel")], rows + total)


def _published(items: list[dict[str, Any]], t: Translator) -> str:
    rows = "".join(f"<tr class='theirs'><td>{_e(p['metric'])}</td><td>{_e(p['value'])}</td>"
                   f"<td>{_e(p['who'])}</td><td>{_e(p['source'])}</td></tr>" for p in items)
    return _table([t("metric"), t("theirs"), t("who"), t("source")], rows)


def _items(results: list[dict[str, Any]], t: Translator) -> str:
    keys = sorted({k for r in results for k in r.get("scores", {})})
    rows = "".join(
        f"<tr><td>{_e(str(r.get('paper') or r.get('id')))}</td>"
        + "".join(f"<td>{number(r['scores'].get(k, ''))}</td>" for k in keys) + "</tr>"
        for r in results)
    return _table([t("item"), *(metric_name(k, t) for k in keys)], rows)


def _table(head: list[str], rows: str) -> str:
    cells = "".join(f"<th>{_e(h)}</th>" for h in head)
    return f"<table><tr>{cells}</tr>{rows}</table>"


def _e(text: object) -> str:
    return html.escape(str(text))
