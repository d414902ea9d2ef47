"""Plain text and Markdown input."""

from __future__ import annotations

from pathlib import Path

from papermind.ingest import parse_bytes, parse_file

MARKDOWN = """# Sparse Signals in Dense Retrieval

Ada Lovelace, Alan Turing

## Abstract

We show that sparse signals help dense retrieval [1].

## 1 Introduction

Dense retrievers miss rare terms (Smith et al., 2020). Hybrid
ranking fixes this, as Jones and Lee (2019) noted.

### 1.1 Scope

We study English only.

## References

[1] A. Smith, B. Jones, and C. Lee. Sparse meets dense. In Proc. SIGIR, 2020.
[2] D. Jones and E. Lee. Hybrid ranking revisited. arXiv:1901.01234, 2019.
"""


def test_markdown_structure_and_line_numbers(tmp_path: Path) -> None:
    path = tmp_path / "paper.md"
    path.write_text(MARKDOWN)
    paper = parse_file(path)
    assert paper.source_type == "md"
    assert paper.title == "Sparse Signals in Dense Retrieval"
    assert paper.authors == ["Ada Lovelace", "Alan Turing"]
    assert paper.abstract == "We show that sparse signals help dense retrieval [1]."
    heads = [(s.number, s.title, s.level) for s in paper.sections]
    assert heads == [(None, "Abstract", 1), ("1", "Introduction", 1), ("1.1", "Scope", 2),
                     (None, "References", 1)]
    intro, scope = paper.sections[1], paper.sections[2]
    assert scope.parent == intro.id and intro.children == [scope.id]
    # lines are numbered as given, blank lines included
    source = MARKDOWN.splitlines()
    page = paper.pages[0]
    assert [ln.text for ln in page.lines[: len(source)]] == [s.strip() for s in source]
    assert all(ln.box is None for ln in page.lines)
    assert paper.sections[1].line == source.index("## 1 Introduction") + 1


def test_markdown_references_and_citations() -> None:
    paper = parse_bytes(MARKDOWN.encode(), "x.md")
    assert [r.key for r in paper.references] == ["1", "2"]
    assert paper.references[1].arxiv == "1901.01234"
    assert paper.references[0].authors == ["A. Smith", "B. Jones", "C. Lee"]
    markers = {c.marker: c.reference_keys for c in paper.citations}
    assert markers["[1]"] == ["1"]
    assert markers["(Smith et al., 2020)"] == ["1"]
    assert markers["Jones and Lee (2019)"] == ["2"]
    cited = next(c for c in paper.citations if c.marker == "Jones and Lee (2019)")
    assert paper.page(1).line(cited.line).text.startswith("ranking fixes this")


def test_plain_text_is_detected_by_content_and_hashed() -> None:
    data = b"A Plain Title\n\nSome body text that is long enough to be a paragraph.\n"
    paper = parse_bytes(data, "notes.bin")
    assert paper.source_type == "txt"
    assert paper.title == "A Plain Title"
    import hashlib
    assert paper.id == hashlib.sha256(data).hexdigest()
    assert paper.paragraphs[0].text.startswith("Some body text")


def test_markdown_detected_without_extension() -> None:
    paper = parse_bytes(b"# T\n\n## Intro\n\ntext\n\n## End\n\nmore\n", "upload")
    assert paper.source_type == "md"


def test_form_feed_splits_text_pages() -> None:
    paper = parse_bytes(b"Title\n\nfirst page text\n\x0csecond page text\n", "a.txt")
    assert len(paper.pages) == 2
    assert paper.pages[1].lines[0].text == "second page text"


def test_legacy_cp1252_text_is_accepted() -> None:
    paper = parse_bytes("Caf\u00e9 na\u00efve title\n\nbody text.\n".encode("cp1252"), "old.txt")
    assert paper.title == "Caf\u00e9 na\u00efve title"
