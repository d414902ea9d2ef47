"""Line clean-up and the de-hyphenating join with its exact offset map."""

from __future__ import annotations

from papermind.ingest.layout import FlowLine
from papermind.ingest.normalize import Vocabulary, clean_line, join_lines, span_lines


def _lines(*texts: str) -> list[FlowLine]:
    return [FlowLine(page=1, text=clean_line(t), n=i) for i, t in enumerate(texts, start=1)]


def test_ligatures_and_odd_code_points_are_normalised() -> None:
    assert clean_line("e\ufb03cient \ufb01nal \ufb02ow") == "efficient final flow"
    assert clean_line("zero\u200bwidth\u00a0space\ufeff") == "zerowidth space"
    assert clean_line("soft\u00adhyphen inside") == "softhyphen inside"
    assert clean_line("  many   spaces\there ") == "many spaces here"


def test_line_end_soft_hyphen_and_pdfium_marker_become_a_hyphen() -> None:
    assert clean_line("a long repre\ufffe") == "a long repre-"
    assert clean_line("a long repre\u00ad") == "a long repre-"


def test_join_dehyphenates_split_words_but_keeps_compounds() -> None:
    text, _ = join_lines(_lines("the represen-", "tation of state-of-the-", "art models"))
    assert text == "the representation of state-of-the-art models"
    text, _ = join_lines(_lines("a well-", "Known fact"))
    assert text == "a well-Known fact"


def test_offset_map_points_back_to_exact_line_spans() -> None:
    lines = _lines("Neural ranking mod-", "els are e\ufb00ective [3].", "They scale.")
    text, segments = join_lines(lines)
    assert text == "Neural ranking models are effective [3]. They scale."
    by_n = {ln.n: ln.text for ln in lines}
    for seg in segments:
        assert text[seg.start:seg.end] == by_n[seg.line][seg.line_start:seg.line_end]
    start = text.index("effective")
    (hit,) = span_lines(segments, start, start + len("effective"))
    assert hit.line == 2
    both = span_lines(segments, text.index("models"), text.index("models") + 6)
    assert [s.line for s in both] == [1, 2]


def test_surrogate_pairs_from_pdfium_become_one_character() -> None:
    from papermind.ingest.normalize import clean_line

    assert clean_line("x \ud835\udc65 y") == "x x y"  # U+1D465 MATHEMATICAL ITALIC X, NFKC'd
    assert clean_line("lone \ud835 half") == "lone half"


def test_hyphen_inside_a_compound_is_kept_at_a_line_break() -> None:
    text, segments = join_lines(_lines("on the WMT 2014 English-", "to-German translation task"))
    assert text == "on the WMT 2014 English-to-German translation task"
    assert [(s.start, s.end) for s in segments] == [(0, 24), (24, 50)]


def test_the_paper_vocabulary_decides_all_caps_title_hyphens() -> None:
    vocab = Vocabulary.of(_lines("we study low-dimensional data", "by balancing the two models"))
    text, _ = join_lines(_lines("ADAPTIVE FEATURE BAL-", "ANCING FOR LOW-", "DIMENSIONAL MOD-", "ELS"), vocab)
    assert text == "ADAPTIVE FEATURE BALANCING FOR LOW-DIMENSIONAL MODELS"
    text, _ = join_lines(_lines("a low-", "dimensional space"), vocab)
    assert text == "a low-dimensional space"  # lower case would otherwise be joined as 'lowdimensional'


def test_chinese_lines_join_without_a_space_and_latin_ones_with_one() -> None:
    text, segments = join_lines(_lines("本文提出了一种基于注意", "力机制的 BERT 模型，在", "GLUE 上",
                                       "results on", "the benchmark"))
    assert text == "本文提出了一种基于注意力机制的 BERT 模型,在GLUE 上results on the benchmark"
    for seg in segments:  # the offset map still points at exact line spans
        assert text[seg.start:seg.end] == _lines(
            "本文提出了一种基于注意", "力机制的 BERT 模型，在", "GLUE 上", "results on",
            "the benchmark")[seg.line - 1].text[seg.line_start:seg.line_end]


def test_full_width_forms_fold_one_character_for_one() -> None:
    raw = "准确率为９５.３％（见表１）"
    assert clean_line(raw) == "准确率为95.3%(见表1)"
    assert len(clean_line(raw)) == len(raw)


def test_pdfium_u0002_hyphen_at_a_line_end_is_a_hyphen_not_a_space() -> None:
    assert clean_line("Resource Description Frame\x02") == "Resource Description Frame-"
    assert clean_line("(\x02 \u2013 1)/(\x02") == "( \u2013 1)/("  # a symbol font's glyph
    text, _ = join_lines(_lines("Resource Description Frame\x02", "work (RDF) of en\x02", "tities"))
    assert text == "Resource Description Framework (RDF) of entities"
