"""What each kind of check finding means, for tools that show rules beside results (SARIF's
rules, editors, the docs). One row a kind; a kind without a row still reports, under a
generic description (``kind_info``), and a test keeps the table complete."""

from __future__ import annotations

from typing import NamedTuple


class KindInfo(NamedTuple):
    """A finding kind's one-line title and the help an author reads to fix it."""

    title: str
    help: str


FINDING_KINDS: dict[str, KindInfo] = {
    "number_vs_table": KindInfo(
        "Number in the text disagrees with its table",
        "The text states a number for a quantity whose cell in the table it names prints another "
        "value. Correct the text or the table so both say the same."),
    "claim_vs_table": KindInfo(
        "Comparison in the text disagrees with its table",
        "The text says one row is better or worse than another where the table's values say the "
        "opposite. Check the direction of the claim and the table."),
    "change_vs_numbers": KindInfo(
        "Stated change does not follow from the numbers",
        "The text gives a change (points, percent) that differs from the difference of the two "
        "numbers it compares. Recompute it."),
    "citation_without_entry": KindInfo(
        "Citation with no bibliography entry",
        "An in-text citation (a number or author-year) matches no entry of the bibliography. Add "
        "the entry or correct the citation."),
    "entry_never_cited": KindInfo(
        "Bibliography entry never cited",
        "An entry of the bibliography is not cited in the text. Cite it or remove it."),
    "duplicate_entry": KindInfo(
        "Duplicated bibliography entry",
        "Two bibliography entries are the same work (or one key is defined twice). Keep one."),
    "entry_missing_year": KindInfo(
        "Bibliography entry without a year",
        "An entry has no year. Add it so readers can find the work."),
    "entry_missing_venue": KindInfo(
        "Bibliography entry without a venue",
        "An entry names no journal, proceedings or publisher. Add where it appeared."),
    "reference_not_found": KindInfo(
        "Bibliography entry not found in the scholarly sources",
        "No scholarly source (OpenAlex, Crossref...) knows this entry. Check its title, authors "
        "and year: it may be misspelt or not exist."),
    "reference_mismatch": KindInfo(
        "Bibliography entry differs from its record",
        "A field (year, authors, venue, DOI) differs from the scholarly record of the work. "
        "Check that field."),
    "reference_retracted": KindInfo(
        "Cited work is retracted",
        "The scholarly record marks this work as retracted. Reconsider the citation."),
    "reference_to_missing_label": KindInfo(
        "Reference to a table, figure, section or equation that does not exist",
        "'Table 5', 'Figure 3' or \\ref{key} points at something the paper does not have. "
        "Correct the number or the label."),
    "table_never_referenced": KindInfo(
        "Table never referenced", "A table is never mentioned in the text. Refer to it or drop it."),
    "figure_never_referenced": KindInfo(
        "Figure never referenced", "A figure is never mentioned in the text. Refer to it or drop it."),
    "acronym_before_definition": KindInfo(
        "Acronym used before it is defined",
        "An acronym appears before the place that spells it out. Define it at first use."),
    "acronym_redefined": KindInfo(
        "Acronym defined twice", "An acronym is spelt out more than once. Keep the first."),
    "instruction_to_reviewers": KindInfo(
        "Instruction to reviewers or language models",
        "A line addresses reviewers or models ('ignore previous instructions', 'give a high "
        "score'). Such instructions are grounds for rejection: remove it."),
    "hidden_text": KindInfo(
        "Hidden text",
        "Text a reader cannot see (white, tiny, off the page or under a figure). Remove it, "
        "above all if it addresses reviewers or models."),
    "self_identifying": KindInfo(
        "Self-identifying citation (double-blind)",
        "The text cites the authors' own work in the first person ('our earlier work [3]'). "
        "Cite it in the third person."),
    "author_identity": KindInfo(
        "Author names or e-mails (double-blind)",
        "The paper names its authors. Remove them for double-blind review."),
    "acknowledgements": KindInfo(
        "Acknowledgements (double-blind)",
        "Acknowledgements can identify the authors. Remove them until the camera-ready."),
    "funding_line": KindInfo(
        "Funding statement (double-blind)",
        "Grant numbers and funders can identify the authors. Remove them until the camera-ready."),
    "non_anonymous_link": KindInfo(
        "Link to the authors' own code or page (double-blind)",
        "A link points at the authors' own repository or page. Use an anonymised link."),
    "venue_part_missing": KindInfo(
        "A part the venue requires is missing",
        "The venue's rules ask for a section (limitations, ethics, checklist...) the paper lacks."),
    "page_limit": KindInfo(
        "Over the venue's page limit", "The main text is longer than the venue allows."),
}
"""Finding kind -> title and help text."""


def kind_info(kind: str) -> KindInfo:
    """The row of ``kind``, or a generic description for a kind the table does not know."""
    return FINDING_KINDS.get(kind) or KindInfo(
        kind.replace("_", " ").capitalize(), f"A '{kind}' finding of papermind check.")
