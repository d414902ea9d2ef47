"""In-text citation markers and their resolution."""

from __future__ import annotations

from papermind.domain.paper import Reference
from papermind.ingest.citations import Resolver, find_markers


def _numeric(n: int) -> Resolver:
    refs = [Reference(key=str(i), index=i, raw=f"entry {i}") for i in range(1, n + 1)]
    return Resolver(refs, [""] * n)


def test_numeric_ranges_and_lists_expand() -> None:
    markers = find_markers("as shown in [3, 7-9] and [12] but not [99] or [a].", _numeric(12))
    assert [(m.marker, m.keys) for m in markers] == [
        ("[3, 7-9]", ["3", "7", "8", "9"]), ("[12]", ["12"])]


def test_author_year_parenthetical_and_narrative() -> None:
    refs = [
        Reference(key="smith2020a", index=1, raw="John Smith, A. B. 2020a.", year=2020),
        Reference(key="smith2020b", index=2, raw="John Smith. 2020b.", year=2020),
        Reference(key="lee2019", index=3, raw="Kim Lee and Ann Park. 2019.", year=2019),
    ]
    resolver = Resolver(refs, ["smith", "smith", "lee"])
    text = ("Prior work (Smith et al., 2020b; Lee and Park, 2019) disagrees with "
            "Smith et al. (2020a), and Lee and Park (2019) agree.")
    markers = find_markers(text, resolver)
    assert [(m.marker, m.keys) for m in markers] == [
        ("(Smith et al., 2020b; Lee and Park, 2019)", ["smith2020b", "lee2019"]),
        ("Smith et al. (2020a)", ["smith2020a"]),
        ("Lee and Park (2019)", ["lee2019"]),
    ]


def test_unresolvable_author_year_marker_is_kept_unresolved() -> None:
    markers = find_markers("as in (Nobody et al., 2001).", Resolver([], []))
    assert [(m.marker, m.keys) for m in markers] == [("(Nobody et al., 2001)", [])]


def test_a_date_in_brackets_is_no_citation() -> None:
    text = "The data end (May 2020), he was (born 21 April 1951 in Leeds), as (Smith, 2019) says."
    assert [m.marker for m in find_markers(text, _numeric(3))] == ["(Smith, 2019)"]


def _resolver() -> Resolver:
    refs = [Reference(key="berg2018", index=1, raw="van der Berg, C. and Ode, F. 2018. T.", year=2018),
            Reference(key="smith2020", index=2, raw="Ann Smith and Bo Lee. 2020. T.", year=2020),
            Reference(key="wu2019a", index=3, raw="Wu, X. 2019a. T.", year=2019),
            Reference(key="muller2017", index=4, raw="Jörg Müller-Lüdenscheidt. 2017. T.", year=2017)]
    return Resolver(refs, ["vanderberg", "smith", "wu", "mullerludenscheidt"])


def test_author_year_forms_with_particles_accents_hyphens_and_suffixes() -> None:
    text = ("Both (Smith and Lee, 2020; Wu, 2019a) and van der Berg et al. (2018) agree with "
            "Müller-Lüdenscheidt (2017), as Smith (2020) and (Smith &amp; Lee, 2020) say.")
    assert [(m.marker, m.keys) for m in find_markers(text, _resolver())] == [
        ("(Smith and Lee, 2020; Wu, 2019a)", ["smith2020", "wu2019a"]),
        ("van der Berg et al. (2018)", ["berg2018"]),
        ("Müller-Lüdenscheidt (2017)", ["muller2017"]),
        ("Smith (2020)", ["smith2020"]),
        ("(Smith &amp; Lee, 2020)", ["smith2020"]),
    ]


def test_no_marker_inside_a_word_or_from_the_digits_of_an_identifier() -> None:
    text = ("Data from arXiv (2018) and a grant (Grant No. ZR2023QF154; NSF 2019-11) "
            "were used (see ABC20210105).")
    assert find_markers(text, _resolver()) == []


def test_an_entry_whose_parsed_year_is_off_still_resolves_by_a_year_it_prints() -> None:
    refs = [Reference(key="kingsbury2009", index=1, year=2009,
                      raw="Brian Kingsbury and Adam Janin. 2011. The IBM 2009 GALE system.")]
    resolver = Resolver(refs, ["kingsbury"])
    assert [m.keys for m in find_markers("as in Kingsbury et al. (2011).", resolver)] == [
        ["kingsbury2009"]]
    assert [m.keys for m in find_markers("as in Kingsbury et al. (2012).", resolver)] == [[]]
