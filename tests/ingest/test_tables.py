"""Tables as cells from caption-anchored, aligned lines."""

from __future__ import annotations

from bench.tex_tables import cell_matches, tex_tables

from papermind.domain.paper import Caption, Segment
from papermind.ingest.layout import FlowLine, LaidOutPage
from papermind.ingest.tables import find_tables


def _row(n: int, y: float, *cells: tuple[str, float]) -> FlowLine:
    pieces = [(text, (x, y, x + 6 * len(text), y + 9)) for text, x in cells]
    return FlowLine(page=1, text=" ".join(t for t, _ in cells), n=n,
                    box=(pieces[0][1][0], y, pieces[-1][1][2], y + 9), size=10, peak=10,
                    pieces=pieces if len(pieces) > 1 else [])


def _page() -> tuple[LaidOutPage, Caption]:
    lines = [
        FlowLine(page=1, text="Table 2: Results on the test sets.", n=1, box=(150, 100, 450, 109)),
        _row(2, 120, ("Baseline", 250), ("Ours", 400)),  # spans two columns each
        _row(3, 132, ("Dataset", 110), ("Acc", 250), ("F1", 320), ("Acc", 400), ("F1", 470)),
        _row(4, 144, ("Circle", 110), ("71.2", 250), ("0.41", 320), ("74.5", 400), ("0.45", 470)),
        _row(5, 156, ("Dino", 110), ("63.0", 250), ("0.38", 320)),  # split like PDFium does
        _row(6, 156, ("66.1", 400), ("0.40", 470)),
        FlowLine(page=1, text="The results show that our method improves accuracy on every dataset.",
                 n=7, box=(108, 190, 504, 199)),
    ]
    page = LaidOutPage(number=1, width=612, height=792, lines=lines)
    caption = Caption(id="cap1", text=lines[0].text, kind="table", label="2",
                      segments=[Segment(start=0, end=34, page=1, line=1, line_start=0, line_end=34)])
    return page, caption


def test_rows_columns_header_and_number_from_a_caption_anchored_region() -> None:
    page, caption = _page()
    (table,) = find_tables([page], [caption])
    assert (table.number, table.page, table.header_rows) == ("2", 1, 2)
    assert [[c.text for c in row] for row in table.rows] == [
        ["Baseline", "Ours"], ["Dataset", "Acc", "F1", "Acc", "F1"],
        ["Circle", "71.2", "0.41", "74.5", "0.45"], ["Dino", "63.0", "0.38", "66.1", "0.40"]]
    assert [c.column for c in table.rows[0]] == [1, 3]
    assert table.rows[3][3].box is not None and table.rows[3][3].box.x0 == 400
    assert [ref.line for ref in table.lines] == [2, 3, 4, 5, 6]  # the prose after it is not a row
    dumped = table.model_dump(mode="json")
    assert {"number", "caption", "page", "box", "rows"} <= dumped.keys()
    assert {"text", "box"} <= dumped["rows"][0][0].keys()


def test_a_caption_without_aligned_rows_gives_no_table() -> None:
    page, caption = _page()
    page.lines = [page.lines[0], page.lines[-1]]
    assert find_tables([page], [caption]) == []


def test_gold_cells_from_tabular_with_spans_and_math() -> None:
    tex = r"""\begin{document}
\begin{tabular}{lcc}
\toprule
& \multicolumn{2}{c}{Baseline} \\ \cmidrule(lr){2-3}
Method & Acc (\%) & $\eta_e$ \\
\midrule
\multirow{2}{*}{Ours} & \textbf{0.59} $\pm$ 0.1 & 3 \\
\bottomrule
\end{tabular}"""
    (rows,) = tex_tables(tex)
    assert rows == [["Baseline"], ["Method", "Acc (%)", "η_e"], ["Ours", "0.59 ± 0.1", "3"]]
    assert cell_matches([["Baseline"], ["Method", "Acc (%)", "ηe"]], rows) == (4, 4, 7)
