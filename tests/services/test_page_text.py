"""The text layer's cache: read once from the PDF, then from disk; forgotten with the paper;
none for a paper without a PDF."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.containers import hashing_container
from tests.support.reader_paper import reader_pdf


def test_words_are_read_once_then_cached_and_forgotten(home: Path, tmp_path: Path) -> None:
    with hashing_container(home) as box:
        paper_id = box.library.add_file(reader_pdf(tmp_path / "r.pdf")).paper_id
        notes = tmp_path / "n.md"
        notes.write_text("# Notes\n\nPlain text.\n", encoding="utf-8")
        md_id = box.library.add_file(notes).paper_id
        assert paper_id and md_id
        paper = box.library.get(paper_id)
        first = box.page_text.words(paper)
        cache = home / "cache" / "words" / f"{paper_id}.json"
        assert [p.page for p in first] == [1, 2] and cache.is_file()
        data = json.loads(cache.read_text(encoding="utf-8"))
        data["pages"][0]["words"][0]["text"] = "CACHED"
        cache.write_text(json.dumps(data), encoding="utf-8")
        assert box.page_text.words(paper)[0].words[0].text == "CACHED"  # read from disk
        data["version"] = -1
        cache.write_text(json.dumps(data), encoding="utf-8")
        assert box.page_text.words(paper) == first  # an old cache is computed again
        assert box.page_text.words(box.library.get(md_id)) == []
        box.remove_paper(paper_id)
        assert not cache.exists()
