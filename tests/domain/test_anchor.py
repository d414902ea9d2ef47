from papermind.domain import Anchor, Evidence, Support, VerificationSummary


def test_anchor_label_single_and_range() -> None:
    assert Anchor(page=3, line_start=12, line_end=15).label() == "p. 3, l. 12-15"
    assert Anchor(page=3, line_start=12, line_end=12).label() == "p. 3, l. 12"


def test_anchor_label_across_pages() -> None:
    anchor = Anchor(page=3, line_start=40, line_end=2, page_end=4)
    assert anchor.label() == "p. 3, l. 40 - p. 4, l. 2"


def test_summary_counts_both_verdicts() -> None:
    at = Anchor(page=1, line_start=1, line_end=1)
    items = [Evidence(quote="a", anchor=at, support=Support(verdict="supported", by="checker:m")),
             Evidence(quote="b", anchor=at),
             Evidence(quote="c", anchor=at, support=Support(verdict="contradicted", by="code")),
             Evidence(quote="d", support=Support(verdict="supported", by="checker:m"))]
    s = VerificationSummary.of(items)
    assert (s.total, s.found, s.verified, s.unchecked, s.contradicted) == (4, 3, 1, 1, 1)
    assert s.unfound == ["d"] and s.share_supported == 0.25 and s.share_found == 0.75
    assert [e.verified for e in items] == [True, False, False, False]


def test_a_checker_never_raises_a_code_verdict() -> None:
    lowered = Evidence(quote="a", support=Support(verdict="not_enough", by="code", reason="x"))
    assert lowered.with_support(Support(verdict="supported", by="checker:m")) == lowered
    worse = lowered.with_support(Support(verdict="contradicted", by="checker:m", reason="y"))
    assert worse.support.verdict == "contradicted"
    fresh = Evidence(quote="b").with_support(Support(verdict="supported", by="checker:m"))
    assert fresh.support.by == "checker:m"
