"""Reports: the one way every surface shows an evidence item and its two verdicts.

``evidence_json`` is the one JSON shape of an evidence item (API, report files, CLI
``--json``); ``status_label`` the one honest wording ("verified" only for found AND
supported); ``text`` / ``markdown`` / ``html`` render a citation for the CLI, Markdown and
HTML reports; ``page_href`` links into the web page view, multi-page spans included;
``install`` adds the same as Jinja filters for any template; ``md_text`` is the one escaping of
paper, user and model text in every Markdown report. Depends on the domain only.
"""

from papermind.reports.citations import (
    EvidenceLike,
    anchor_json,
    as_evidence,
    evidence_json,
    lines_on_page,
    page_href,
    span_label,
    span_of,
    span_spec,
    status_class,
    status_label,
    summary_json,
    support_json,
)
from papermind.reports.markdown_text import md_text
from papermind.reports.render import (
    DEMO_LABEL,
    html,
    install,
    markdown,
    render_block,
    text,
    where,
)

__all__ = [
    "DEMO_LABEL", "EvidenceLike", "anchor_json", "as_evidence", "evidence_json", "html",
    "install", "lines_on_page", "markdown", "md_text", "page_href", "render_block", "span_label",
    "span_of", "span_spec", "status_class",
    "status_label", "summary_json", "support_json", "text", "where",
]
