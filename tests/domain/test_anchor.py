from papermind.domain import Anchor, Evidence, VerificationSummary


def test_anchor_label_single_and_range() -> None:
    assert Anchor(page=3, line_start=12, line_end=15).label() == "p. 3, l. 12-15"
    assert Anchor(page=3, line_start=12, line_end=12).label() == "p. 3, l. 12"


def test_anchor_label_across_pages() -> None:
    anchor = Anchor(page=3, line_start=40, line_end=2, page_end=4)
    assert anchor.label() == "p. 3, l. 40 - p. 4, l. 2"


def test_summary_counts_unverified() -> None:
    items = [Evidence(quote="a", verified=True), Evidence(quote="b")]
    summary = VerificationSummary.of(items)
    assert (summary.total, summary.verified, summary.unverified) == (2, 1, ["b"])
    assert summary.share_verified == 0.5
