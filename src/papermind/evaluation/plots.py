"""Plots of a run as inline SVG: score vs human rating, calibration, per-role bars (review);
metric means with intervals (QA); per-paper shares (reading). None without matplotlib.

Captions, axis labels and legends go through the report's translator; SVG text is kept as
text (``svg.fonttype: none``) so the browser draws Chinese labels with its own fonts."""

from __future__ import annotations

import io
import warnings
from collections.abc import Callable
from typing import Any

from papermind.i18n import Translator, translator

Figure = tuple[str, str]  # (caption, svg)


Maker = Callable[[Any, dict[str, Any], list[dict[str, Any]], Translator], None]


def figures(kind: str, summary: dict[str, Any], results: list[dict[str, Any]],
            t: Translator | None = None) -> list[Figure] | None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    t = t or translator("reports", "en")
    makers: dict[str, list[tuple[str, Maker]]] = {
        "review": [("panel score vs mean human rating", _scatter),
                   ("calibration: share accepted by panel-score bin", _calibration),
                   ("per-role AUC and Pearson r", _roles)],
        "qa": [("metric means with 95% bootstrap intervals", _means)],
        "reading": [("per paper: share of points found / found and supported", _shares)],
    }
    out = []
    for caption, make in makers.get(kind, []):
        with matplotlib.rc_context({"svg.fonttype": "none"}), warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # glyphs the default font lacks
            fig, ax = plt.subplots(figsize=(5, 3.6))
            make(ax, summary, results, t)
            buffer = io.StringIO()
            fig.tight_layout()
            fig.savefig(buffer, format="svg")
            plt.close(fig)
        out.append((t(caption), "<svg" + buffer.getvalue().split("<svg", 1)[1]))
    return out


def _scatter(ax: Any, summary: dict[str, Any], results: list[dict[str, Any]],
             t: Translator) -> None:
    for accepted, colour in ((True, "tab:green"), (False, "tab:red")):
        rows = [r for r in results if bool(r["accepted"]) == accepted]
        ax.scatter([r["human_mean"] for r in rows], [r["panel_score"] for r in rows],
                   c=colour, label=t("accepted") if accepted else t("rejected"), alpha=0.7)
    ax.set_xlabel(t("mean human rating"))
    ax.set_ylabel(t("panel score (1-10)"))
    ax.legend(fontsize=8)


def _calibration(ax: Any, summary: dict[str, Any], results: list[dict[str, Any]],
                 t: Translator) -> None:
    bins = [(1, 4), (4, 5), (5, 6), (6, 7), (7, 10.01)]
    labels, shares, counts = [], [], []
    for low, high in bins:
        rows = [r for r in results if low <= r["panel_score"] < high]
        labels.append(f"{low:g}-{min(high, 10):g}")
        shares.append(sum(bool(r["accepted"]) for r in rows) / len(rows) if rows else 0.0)
        counts.append(len(rows))
    bars = ax.bar(labels, shares, color="tab:blue")
    for bar, n in zip(bars, counts, strict=True):
        ax.annotate(f"n={n}", (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                    ha="center", va="bottom", fontsize=8)
    ax.set_ylim(0, 1.1)
    ax.set_xlabel(t("panel score bin"))
    ax.set_ylabel(t("share accepted by humans"))


def _roles(ax: Any, summary: dict[str, Any], results: list[dict[str, Any]],
           t: Translator) -> None:
    roles = summary.get("roles", {})
    names = list(roles)
    x = range(len(names))
    ax.bar([i - 0.2 for i in x], [_v(roles[n]["auc"]) for n in names], 0.4, label="AUC")
    ax.bar([i + 0.2 for i in x], [_v(roles[n]["pearson"]) for n in names], 0.4, label="r")
    ax.set_xticks(list(x), [n.replace("_reviewer", "") for n in names], fontsize=8)
    ax.axhline(0.5, color="grey", lw=0.5)
    ax.legend(fontsize=8)


def _means(ax: Any, summary: dict[str, Any], results: list[dict[str, Any]],
           t: Translator) -> None:
    metrics = {k: v for k, v in summary.get("metrics", {}).items() if "low" in v}
    names = list(metrics)
    values = [_v(metrics[n]) for n in names]
    errors = [[max(0.0, values[i] - _v(metrics[n], "low")) for i, n in enumerate(names)],
              [max(0.0, _v(metrics[n], "high") - values[i]) for i, n in enumerate(names)]]
    ax.barh([t(n.replace("_", " ")) for n in names], values, xerr=errors, color="tab:blue")
    ax.set_xlim(0, 1)


def _shares(ax: Any, summary: dict[str, Any], results: list[dict[str, Any]],
            t: Translator) -> None:
    names = [str(r["paper"])[:10] for r in results]
    x = range(len(names))
    ax.bar([i - 0.2 for i in x], [r["scores"]["share_found"] for r in results], 0.4,
           label=t("found"))
    ax.bar([i + 0.2 for i in x], [r["scores"]["share_supported"] for r in results], 0.4,
           label=t("found and supported"))
    ax.set_xticks(list(x), names, fontsize=7, rotation=45)
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8)


def _v(metric: dict[str, Any], key: str = "value") -> float:
    value = metric.get(key)
    return float(value) if isinstance(value, int | float) and value == value else 0.0
