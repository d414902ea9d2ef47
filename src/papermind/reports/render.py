"""Render one evidence item for the CLI, Markdown and HTML, with the same facts in each.

Each renderer shows the anchor label (or that it was not found), the status label, the
cited line ids, the quote, the paper's text at the anchor, and the reasons and notes. The
HTML form is a ``<span class="cite">`` with the link into the page view and the data
attributes the web reader uses (the span, and the paper's text there for a word-exact
highlight); ``install(env)`` makes all of it available to templates.
"""

from __future__ import annotations

from typing import Any

from jinja2 import Environment, Template
from markupsafe import Markup, escape

from papermind.domain import Evidence
from papermind.i18n import translator
from papermind.reports.citations import (
    EvidenceLike,
    as_evidence,
    evidence_json,
    page_href,
    span_spec,
    status_class,
    status_label,
)
from papermind.reports.markdown_text import md_text

DEMO_LABEL = "demo quality: bundled local model"
"""The one label every report and surface shows when a small offline model wrote it."""


def where(item: EvidenceLike) -> str:
    """The anchor label ('p. 4, l. 90 - p. 5, l. 12'), or 'not found'."""
    evidence = as_evidence(item)
    return evidence.anchor.label() if evidence.anchor is not None else "not found"


def _details(evidence: Evidence) -> list[tuple[str, str]]:
    """Detail rows; the model's quote is labelled as the model's (never as the paper's text)
    and left out when the paper's text at the anchor already shows it."""
    quote = evidence.quote
    if quote and evidence.found and " ".join(quote.split()) in " ".join(
            evidence.matched_text.split()):
        quote = ""
    rows = [("cited", evidence.cited), ("claim", evidence.claim), ("model's quote", quote),
            ("paper's text", evidence.matched_text)]
    rows += [("reason", r) for r in evidence.reasons if r not in status_label(evidence)]
    rows += [("note", n) for n in evidence.notes]
    return [(k, v) for k, v in rows if v]


def text(item: EvidenceLike, *, details: bool = True) -> str:
    """CLI form: '[p. 3, l. 12-14] verified' then indented detail lines."""
    evidence = as_evidence(item)
    head = f"[{where(evidence)}] {status_label(evidence)}"
    if not details:
        return head
    return "\n".join([head, *(f"  {k}: {v}" for k, v in _details(evidence))])


def markdown(item: EvidenceLike, *, details: bool = True, status: bool = True) -> str:
    """Markdown form: the linked anchor label and the status, then the details as a list
    (``status=False``: the item's status is said once elsewhere, e.g. by its comment)."""
    evidence = as_evidence(item)
    label = where(evidence)
    link = f"[{label}]({page_href(evidence.anchor)})" if evidence.anchor is not None else label
    head = f"{link} — **{md_text(status_label(evidence))}**" if status else link
    if not details:
        return head
    return "\n".join([head, *(f"  - {k}: {md_text(v)}" for k, v in _details(evidence))])


def html(item: EvidenceLike, *, details: bool = True, status: bool = True) -> Markup:
    """HTML form: a ``span.cite`` (linked when found) with the status and the details
    (``status=False``: no status text, said once elsewhere; the class still marks it)."""
    evidence = as_evidence(item)
    kind = status_class(evidence)
    label = escape(where(evidence))
    anchor = evidence.anchor
    if anchor is not None:
        label = Markup('<a href="{}">{}</a>').format(page_href(anchor), label)
        data = Markup(' data-paper="{}" data-page="{}" data-line-start="{}" data-line-end="{}"'
                      ' data-page-end="{}" data-lines="{}" data-text="{}"').format(
            anchor.paper_id, anchor.page, anchor.line_start, anchor.line_end,
            anchor.page_end or anchor.page, span_spec(anchor), evidence.matched_text)
    else:
        data = Markup("")
    said = Markup(' <span class="status {}">{}</span>').format(
        kind, status_label(evidence)) if status else Markup("")
    parts = [Markup('<span class="cite {}"{}>{}{}').format(kind, data, label, said)]
    if details and _details(evidence):
        parts.append(Markup('<span class="details">'))
        parts += [Markup('<span class="{}"><b>{}:</b> {}</span>').format(
            k.split()[-1], k, v) for k, v in _details(evidence)]
        parts.append(Markup("</span>"))
    parts.append(Markup("</span>"))
    return Markup("").join(parts)


def render_block(template: Template, block: str, /, **values: Any) -> Markup:
    """Only the block ``block`` of ``template`` (a report's ``content``, for a page that
    shows it inside its own layout); ``values`` may use any name."""
    return Markup("".join(template.blocks[block](template.new_context(values))))


def install(env: Environment) -> Environment:
    """Add the filters ``evidence_html``, ``evidence_md``, ``evidence_text``,
    ``evidence_status``, ``evidence_class``, ``evidence_where``, ``page_href`` and the globals
    ``evidence_json`` and ``translator`` (a report's own strings in its language) to ``env``
    (templates then render evidence the one way)."""
    filters: dict[str, Any] = {
        "evidence_html": html, "evidence_md": markdown, "evidence_text": text,
        "evidence_status": status_label, "evidence_class": status_class,
        "evidence_where": where, "page_href": page_href}
    env.filters.update(filters)
    env.globals["evidence_json"] = evidence_json
    env.globals["translator"] = translator
    return env
