"""Display equations set in pieces, and in-text references linked to them."""

from __future__ import annotations

from papermind.domain.paper import Equation, Paragraph, Segment
from papermind.ingest.blocks import split_blocks
from papermind.ingest.equation_refs import equation_refs
from papermind.ingest.layout import FlowLine


def _line(text: str, y: float, x: float = 108, size: float = 10.0, starts: bool = False,
          pieces: list[tuple[str, float]] | None = None) -> FlowLine:
    line = FlowLine(page=1, text=text, box=(x, y, x + 6 * len(text), y + 10), size=size, peak=size,
                    starts_block=starts)
    line.pieces = [(t, (px, y, px + 6 * len(t), y + 10)) for t, px in (pieces or [])]
    return line


def test_a_display_set_in_sub_and_superscript_rows_keeps_its_number() -> None:
    lines = [
        _line("Both branches use similar network architectures, as follows.", 100, starts=True),
        _line("ϵlocal", 120, x=242, size=7.0, starts=True),
        _line("θ (xup", 122, x=246, size=7.0),
        _line("t , t) (4)", 124, x=349, starts=True, pieces=[("t , t)", 349), ("(4)", 493)]),
        _line("where MLP denotes a multi-layer perceptron with sinusoidal embeddings.", 140, starts=True),
        _line("(5)", 160, x=492),  # a number on its own line under a display
    ]
    drafts = split_blocks(lines, [None] * len(lines), set())
    equations = [(d.label, [ln.text for ln in d.lines]) for d in drafts if d.kind == "equation"]
    assert equations == [("4", ["ϵlocal", "θ (xup", "t , t) (4)"]), ("5", ["(5)"])]
    assert [d.kind for d in drafts] == ["paragraph", "equation", "paragraph", "equation"]


def test_equation_references_resolve_to_numbered_equations() -> None:
    text = "Minimising Eq. (3) and Equations 4 and 5 is what Eq. 9 cannot do; see equation (4)."
    paragraph = Paragraph(id="p1", text=text, segments=[
        Segment(start=0, end=len(text), page=2, line=7, line_start=0, line_end=len(text))])
    equations = [Equation(id=f"eq{k}", text="x = y", label=str(k)) for k in (3, 4, 5)]
    refs = [(r.marker, r.label, r.equation_id, r.page, r.line) for r in equation_refs([paragraph], equations)]
    assert refs == [("Eq. (3)", "3", "eq3", 2, 7), ("Equations 4 and 5", "4", "eq4", 2, 7),
                    ("Equations 4 and 5", "5", "eq5", 2, 7), ("Eq. 9", "9", None, 2, 7),
                    ("equation (4)", "4", "eq4", 2, 7)]
