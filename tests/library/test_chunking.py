from pathlib import Path

from papermind.library.chunking import chunk_paper, count_tokens, index_text, line_anchors
from tests.library.search_fixtures import make_paper

LONG = " ".join(f"Sentence number {i} talks about convolutional networks." for i in range(40))


def sample():
    return make_paper([
        ("Introduction", "introduction", ["We study offensive tweets.", "Targets matter."]),
        ("Method", "method", ["Our model is a CNN.", ("eq", "y = softmax(W x + b)"),
                              ("cap", "Table 1: Dataset statistics."), LONG]),
        ("Results", "results", ["The CNN wins with F1 0.80."]),
    ], references=["A. Smith. Offensive tweets. 2019.", "B. Jones. CNNs. 2018."])


def test_chunks_never_cross_sections_and_carry_paths():
    chunks = chunk_paper(sample(), max_tokens=60)
    content = [c for c in chunks if c.kind in ("content", "equation")]
    assert content[0].section_path == ["Introduction"]
    assert content[0].text == "We study offensive tweets. Targets matter."
    assert {c.section_kind for c in content} == {"introduction", "method", "results"}
    for chunk in content:
        assert len({tuple(chunk.section_path)}) == 1
        assert "We study" not in chunk.text or chunk.section_path == ["Introduction"]
    assert content[-1].section_path == ["Results"] and content[-1].text.startswith("The CNN")


def test_equations_join_the_flow_and_captions_are_chunks():
    chunks = chunk_paper(sample(), max_tokens=60)
    method = [c for c in chunks if c.section_path == ["Method"] and c.kind == "content"]
    assert "Our model is a CNN. y = softmax(W x + b)" in method[0].text
    captions = [c for c in chunks if c.kind == "caption"]
    assert [c.text for c in captions] == ["Table 1: Dataset statistics."]
    assert captions[0].section_kind == "method"


def test_budget_respected_long_paragraph_split_at_sentences_with_anchors():
    paper = sample()
    chunks = chunk_paper(paper, max_tokens=60)
    pieces = [c for c in chunks if "Sentence number" in c.text]
    assert len(pieces) >= 5
    assert all(count_tokens(c.text) <= 60 for c in pieces)
    assert " ".join(c.text for c in pieces) == LONG
    assert all(p.text.endswith(".") for p in pieces)
    line = next(ln for ln in paper.pages[0].lines if ln.text == LONG)
    assert all(c.anchors[0].line_start == line.n for c in pieces)
    assert pieces[0].anchors[0].boxes == [line.box]


def test_references_chunked_separately():
    chunks = chunk_paper(sample(), max_tokens=60)
    refs = [c for c in chunks if c.kind == "reference"]
    assert len(refs) == 1 and refs[0].section_kind == "references"
    assert "A. Smith" in refs[0].text and "B. Jones" in refs[0].text
    assert all("Smith" not in c.text for c in chunks if c.kind != "reference")
    assert len(refs[0].anchors) == 1 and refs[0].anchors[0].line_end - refs[0].anchors[0].line_start == 1


def test_ids_hashes_and_index_text():
    chunks = chunk_paper(sample())
    assert [c.id for c in chunks] == [f"{chunks[0].paper_id}:{i}" for i in range(len(chunks))]
    assert len({c.content_hash for c in chunks}) == len(chunks)
    assert index_text(chunks[0]).startswith("Introduction\n")
    assert chunk_paper(sample()) == chunks  # deterministic


def test_line_anchors_split_on_gaps_and_pages():
    paper = make_paper([("A", "other", [f"line {i}" for i in range(50)])], lines_per_page=20)
    anchors = line_anchors(paper, [(1, 3), (1, 4), (1, 5), (1, 9), (2, 1), (2, 2)])
    assert [(a.page, a.line_start, a.line_end) for a in anchors] == [(1, 3, 5), (1, 9, 9),
                                                                     (2, 1, 2)]
    assert all(a.paper_id == paper.id for a in anchors)


def test_abstract_without_section_becomes_chunk():
    paper = make_paper([("Intro", "introduction", ["Body text."])]).model_copy(
        update={"abstract": "We propose a thing."})
    chunks = chunk_paper(paper)
    assert any(c.section_kind == "abstract" and c.text == "We propose a thing." for c in chunks)


def test_a_one_line_pdf_is_stored_with_a_search_chunk(tmp_path: Path, home: Path) -> None:
    """Its only line became the title, so it had no paragraph and no chunk: never found."""
    from reportlab.pdfgen import canvas

    from papermind.config import load_settings
    from papermind.services.container import Container

    pdf = tmp_path / "one.pdf"
    page = canvas.Canvas(str(pdf))
    page.drawString(72, 700, "Sparse retrieval with learned term weights beats BM25.")
    page.save()
    box = Container(load_settings(home).model_copy(
        update={"search": load_settings(home).search.model_copy(update={"embedder": "none"})}))
    [added] = box.library.add([pdf])
    assert added.status == "added"
    [chunk] = chunk_paper(box.library.get(added.paper_id or ""))
    assert chunk.text == "Sparse retrieval with learned term weights beats BM25."
    assert chunk.anchors[0].page == 1 and chunk.anchors[0].line_start == 1
    hits = box.search.search("learned term weights", mode="bm25")
    assert [h.paper_id for h in hits] == [added.paper_id]
    box.close()
