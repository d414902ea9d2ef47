"""Reference entries: fields of several citation styles."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from papermind.domain import Paper
from papermind.ingest import parse_bytes, parse_file
from papermind.ingest.references import parse_entry, split_names, surname


def test_natbib_style_entry() -> None:
    ref = parse_entry("Jonathan Ho, Ajay Jain, and Pieter Abbeel. Denoising diffusion "
                      "probabilistic models. In Advances in Neural Information Processing "
                      "Systems, volume 33, pp. 6840–6851, 2020.")
    assert ref.authors == ["Jonathan Ho", "Ajay Jain", "Pieter Abbeel"]
    assert ref.title == "Denoising diffusion probabilistic models"
    assert ref.year == 2020
    assert ref.venue and ref.venue.startswith("Advances in Neural")


def test_numbered_ieee_style_entry_with_doi() -> None:
    ref = parse_entry('[7] A. Smith and B. Jones, "Fast ranking with sparse signals," in '
                      "Proc. SIGIR, 2019, pp. 1-10. doi:10.1145/3331184.3331190.")
    assert ref.label == "7"
    assert ref.authors == ["A. Smith", "B. Jones"]
    assert ref.title == "Fast ranking with sparse signals"
    assert ref.doi == "10.1145/3331184.3331190"
    assert ref.year == 2019


def test_apa_style_entry_with_arxiv() -> None:
    ref = parse_entry("Smith, J., & Lee, K. (2021a). Learning to cite. arXiv preprint "
                      "arXiv:2101.00001.")
    assert ref.authors == ["Smith, J.", "Lee, K."]
    assert ref.year == 2021 and ref.year_suffix == "a"
    assert ref.title == "Learning to cite"
    assert ref.arxiv == "2101.00001"


def test_acl_style_year_after_authors() -> None:
    ref = parse_entry("Noah A. Smith and Jason Eisner. 2005. Contrastive estimation. "
                      "In Proceedings of ACL, pages 354–362.")
    assert ref.authors == ["Noah A. Smith", "Jason Eisner"]
    assert ref.title == "Contrastive estimation"
    assert ref.year == 2005


def test_surnames() -> None:
    assert surname("Smith, J.") == "smith"
    assert surname("Jurica Šprem") == "sprem"
    assert split_names("A. Cau, R. Kuiper, and W.-P. de Roever") == [
        "A. Cau", "R. Kuiper", "W.-P. de Roever"]


def test_author_lists_read_name_by_name_in_every_style() -> None:
    cases = {
        "Ancona, D., and Zucca, E. An algebraic approach to mixins and modularity. In Proc. ALP, 1996.":
            (["Ancona, D.", "Zucca, E."], "An algebraic approach to mixins and modularity"),
        "Feferman, S., Transfinite Recursive Progressions of Axiomatic Theories, J. Symbolic Logic, 27 (1962).":
            (["Feferman, S."], "Transfinite Recursive Progressions of Axiomatic Theories"),
        "R. Chandra, S. Devine, M. Rosenblum, Scheduling and Page Migration for Servers. Proc. ASPLOS, 1994.":
            (["R. Chandra", "S. Devine", "M. Rosenblum"], "Scheduling and Page Migration for Servers"),
        "Shaojie Bai, V. Koltun, and J. Z. Kolter. Multiscale deep equilibrium models. In NeurIPS, 2020.":
            (["Shaojie Bai", "V. Koltun", "J. Z. Kolter"], "Multiscale deep equilibrium models"),
        "J. E. Hu, Yelong Shen, and Weizhu Chen. LoRA: Low-rank adaptation. In ICLR, 2022.":
            (["J. E. Hu", "Yelong Shen", "Weizhu Chen"], "LoRA: Low-rank adaptation"),
        "F. Jahanian and Al Mok. Safety analysis of timing properties. IEEE TSE, 12(9), 1986.":
            (["F. Jahanian", "Al Mok"], "Safety analysis of timing properties"),
        "Etzioni, O. and Weld, D. (1994) A Softbot-based Interface to the Internet, Comm. of the ACM, 37(7).":
            (["Etzioni, O.", "Weld, D."], "A Softbot-based Interface to the Internet"),
    }
    for raw, (authors, title) in cases.items():
        parsed = parse_entry(raw)
        assert (parsed.authors, parsed.title) == (authors, title), raw
    editors = parse_entry("Mark Keane, Padraig Cunningham, and Ruth Byrne, editors. Proc. AICS. 1994.")
    assert editors.authors == []  # editors are not authors


def test_the_year_is_not_read_from_an_arxiv_id_or_a_title() -> None:
    assert parse_entry("Adam Gleave, Michael Dennis, and Jan Leike. Quantifying differences in "
                       "reward functions. arXiv preprint arXiv:2006.13900, 2020.").year == 2020
    assert parse_entry("Noel Codella, Veronica Rotemberg, et al. Skin lesion analysis toward "
                       "melanoma detection 2018: A challenge. arXiv preprint "
                       "arXiv:1902.03368, 2019.").year == 2019


def test_entries_broken_by_blank_lines_are_joined_and_their_citations_resolve() -> None:
    from papermind.grounding.references import ReferenceResolver
    from papermind.ingest import parse_bytes

    text = ("A Title\n\nAnonymous authors\n\n## 1 INTRODUCTION\n\n"
            "Offline RL without evaluation works (Brandfonbrener et al., 2021), and simple "
            "baselines do well (Xiao et al., 2018; van der Maaten & Hinton, 2008).\n\n"
            "## REFERENCES\n\n"
            "David Brandfonbrener, William F Whitney, and Joan Bruna. Offline rl without\n\n"
            "off-policy evaluation. arXiv preprint arXiv:2106.08909, 2021.\n\n"
            "Laurens van der Maaten and Geoffrey Hinton. Visualizing data using t-SNE. JMLR, 2008.\n\n"
            "Bin Xiao, Haiping Wu, and Yichen Wei. Simple baselines for pose tracking. In Eur.\n\n"
            "Conf. Comput. Vis., 2018.\n\n"
            "Lili Chen, Kevin Lu, and Pieter\n\n"
            "Abbeel. Decision transformer. arXiv preprint arXiv:2106.01345, 2021.\n")
    paper = parse_bytes(text.encode(), "p.txt")
    assert [(r.authors[0], r.year) for r in paper.references] == [
        ("David Brandfonbrener", 2021), ("Laurens van der Maaten", 2008), ("Bin Xiao", 2018),
        ("Lili Chen", 2021)]
    resolver = ReferenceResolver(paper)
    assert all(resolver.keys_of(c) for c in paper.citations) and len(paper.citations) == 2


def test_an_entry_opening_with_an_initial_is_no_lettered_heading() -> None:
    from papermind.ingest import parse_bytes

    text = ("A Title\n\nAnonymous authors\n\n## 1 INTRODUCTION\n\n"
            "Attention helps segmentation (Sagar, 2021; Tan & Le, 2019).\n\n"
            "REFERENCES\n\n"
            "R. P. Poudel, S. Liwicki, and R. Cipolla. Fast-scnn: fast semantic segmentation. "
            "arXiv preprint arXiv:1902.04502, 2019.\n\n"
            "A. Sagar. Dmsanet: Dual multi scale attention network. arXiv preprint, 2021.\n\n"
            "M. Tan and Q. Le. Efficientnet: Rethinking model scaling. In ICML, 2019.\n")
    paper = parse_bytes(text.encode(), "p.txt")
    assert [s.title for s in paper.sections][-1] == "REFERENCES"
    assert [r.authors[0] for r in paper.references] == ["R. P. Poudel", "A. Sagar", "M. Tan"]


def _paper(body: str, name: str = "paper.md") -> Paper:
    return parse_bytes(body.encode(), name)


INTRO = "# A Study\n\n## 1 Introduction\n\nWe build on prior work.\n\n"


def test_bulleted_numbered_markdown_list_is_one_entry_per_item() -> None:
    paper = _paper(INTRO + "As [2] and [3] show, [1] holds.\n\n## References\n\n"
                   "- [1] Ann Smith and Bo Lee. A first title. In Proc. ICML, 2020.\n"
                   "- [2] Carl Wu. A second title. arXiv preprint arXiv:2101.00001, 2021.\n\n"
                   "- [3] Dana Park, Eve Kim, and Finn Ode. A third title. Nature, 5:1-9, 2019.\n")
    assert [(r.key, r.year) for r in paper.references] == [("1", 2020), ("2", 2021), ("3", 2019)]
    assert paper.references[1].raw.startswith("[2] Carl Wu.")  # the list mark is no text
    assert [c.reference_keys for c in paper.citations] == [["2"], ["3"], ["1"]]


def test_bulleted_author_year_list_with_wrapped_items() -> None:
    paper = _paper(INTRO + "Both (Smith &amp; Lee, 2020; Wu, 2019a) and van der Berg et al. "
                   "(2018) agree.\n\n## References\n\n"
                   "- Smith, A. and Lee, B. A first title that runs on\n"
                   "  over a second line. In Proc. ICML, 2020.\n"
                   "* van der Berg, C., Ode, F., and Kim, E. Second title. JMLR, 2018.\n"
                   "+ Wu, X. Third title. In NeurIPS, 2019a.\n")
    assert len(paper.references) == 3
    assert "over a second line" in paper.references[0].raw
    keys = [k for c in paper.citations for k in c.reference_keys]
    assert sorted(keys) == sorted(r.key for r in paper.references)


def test_numbered_markdown_list_and_other_reference_headings() -> None:
    items = "".join(f"{i}. Author{chr(96 + i)} Name. Title number {i}. Venue, 20{10 + i}.\n"
                    for i in range(1, 13))
    for heading in ("## Bibliography", "## Literature Cited", "## 参考文献", "REFERENCES",
                    "**References**", "References and Notes", "Works Cited"):
        paper = _paper(INTRO + f"{heading}\n\n{items}", "paper.md" if "#" in heading else "p.txt")
        assert [r.key for r in paper.references] == [str(i) for i in range(1, 13)], heading


def test_author_year_entries_parted_by_blank_lines_in_plain_text() -> None:
    paper = _paper("A Study\n\nIntroduction\n\nAs Smith et al. (2020) and Lee (2019) show.\n\n"
                   "References\n\nAnn Smith, Bo Lee, and Carl Wu. A first title that\n"
                   "runs on. In Proc. ICML, 2020.\n\nDana Lee. Second title. JMLR, 2019.\n",
                   "paper.txt")
    assert [r.year for r in paper.references] == [2020, 2019]
    assert all(c.reference_keys for c in paper.citations) and len(paper.citations) == 2


def test_one_entry_per_line_without_blank_lines_and_wrapped_entries_joined() -> None:
    paper = _paper("A Study\n\nIntroduction\n\nAs Kim and Lee (2018) and Park (2019) show.\n\n"
                   "References\n\n"
                   "Kim, A., & Lee, B. (2018). A first title. Journal of Things, 3(2), 1-10.\n"
                   "Park, C. (2019). A second title that is long enough to wrap over\n"
                   "two lines. Neural Computation, 9(8), 1735-1780.\n"
                   "Dana Ode and Eve Wu. A third title. In Proc. ACL, 2020.\n"
                   "-----\n"
                   "Page 12\n", "paper.txt")
    assert [r.year for r in paper.references] == [2018, 2019, 2020]
    assert "two lines. Neural Computation" in paper.references[1].raw
    assert all(c.reference_keys for c in paper.citations) and len(paper.citations) == 2


def test_digits_of_identifiers_are_no_year() -> None:
    ref = parse_entry("F. Dornaika and A. Moujahid. Efficient embedding. Engineering Applications "
                      "of AI, 95:103831, 2020. ISSN 0952-1976. doi: 10.1016/j.engappai. 2019.103831.")
    assert ref.year == 2020


def test_acl_style_year_after_the_authors_wins_over_a_year_in_the_title() -> None:
    ref = parse_entry("Brian Kingsbury, Hagen Soltau, and Adam Janin. 2011. The IBM 2009 GALE "
                      "Arabic speech transcription system. In Proceedings of ICASSP, pages 4672-4675.")
    assert ref.year == 2011


def test_markdown_reference_lists_of_real_papers_have_every_item(shared_data: Path) -> None:
    """Docling's Markdown of 20 NeurIPS papers: the parsed count equals the list's items
    (counted by hand: bench/reference_counts_gold.json)."""
    gold = json.loads((Path(__file__).parents[2] / "bench" / "reference_counts_gold.json")
                      .read_text())["neurips_md"]
    folder = shared_data / "neurips_md"
    if not folder.is_dir():
        pytest.skip("no neurips_md in the shared data")
    counts = {name: len(parse_file(folder / name).references) for name in gold
              if (folder / name).is_file()}
    assert counts == {name: gold[name] for name in counts}


def test_a_reference_heading_in_body_type_still_opens_the_list() -> None:
    body = "".join(f"Sentence {i} of the paper, which goes on for a while here.\n" for i in range(12))
    entries = "".join(f"Author{chr(97 + i)}, A. and Other, B. 20{10 + i}. Title {i}. In Proc. X.\n"
                      for i in range(6))
    paper = _paper(f"A Study\n\nIntroduction\n\n{body}As Authora and Other (2010) show.\n"
                   f"References\n{entries}", "paper.txt")
    assert "References" not in [s.title for s in paper.sections]  # not set as a heading
    assert [r.year for r in paper.references] == [2010 + i for i in range(6)]
    assert paper.citations[0].reference_keys == [paper.references[0].key]


def test_a_list_item_that_lost_its_mark_is_still_an_entry() -> None:
    paper = _paper(INTRO + "## References\n\n"
                   "- Smith, A. and Lee, B. A first title. In Proc. ICML, 2020.\n\n"
                   "Wu, X. and Kim, C. Second title, a page later. JMLR, 2019.\n\n"
                   "- Park, D. Third title that wraps onto\n\nConference on Machine Learning, 2018.\n")
    assert [r.year for r in paper.references] == [2020, 2019, 2018]


def test_text_without_blank_lines_page_furniture_and_single_authors() -> None:
    """Extracted text: no blank lines, a running head and a page number inside the list,
    middle initials without their point, a single author closed by a full stop."""
    head = "Published as a conference paper at ICLR 2022"
    body = "".join(f"{head}\nPage {i} text goes on here.\n" for i in range(3))
    paper = _paper(f"A Study\n\nIntroduction\n\n{body}As Jacobs et al. (1991) and Elkan (2001) "
                   "and Lake et al. (2015) show.\nREFERENCES\n"
                   "Robert A Jacobs, Michael I Jordan, and Geoffrey E Hinton. Adaptive mixtures of\n"
                   "local experts. MIT Press, 1991.\n"
                   "Charles Elkan. The foundations of cost-sensitive learning. In International joint\n"
                   "conference on artificial intelligence, pp. 973-978, 2001.\n"
                   f"12\n{head}\n"
                   "Brenden M Lake, Ruslan Salakhutdinov, and Joshua B Tenenbaum. Human-level concept\n"
                   "learning. Science, 350(6266), 2015.\n", "paper.txt")
    assert [r.year for r in paper.references] == [1991, 2001, 2015]
    assert not any(head in r.raw for r in paper.references)
    assert [c.reference_keys for c in paper.citations] == [[r.key] for r in paper.references]


def test_a_markdown_heading_in_extracted_text_ends_the_list() -> None:
    paper = _paper("A Study\n\nIntroduction\n\nAs Smith (2020) shows.\n\nREFERENCES\n\n"
                   "Ann Smith and Bo Lee. A first title. In Proc. ICML, 2020.\n\n"
                   "## SUPPLEMENTARY MATERIAL\n\nMore results of the appendix, 2021.\n", "paper.txt")
    assert [r.year for r in paper.references] == [2020]


def test_an_appendix_with_its_own_reference_list_and_a_damaged_year() -> None:
    paper = _paper(INTRO + "As Smith (2020), Baird (1995) and Kingma and Ba (2015) show.\n\n"
                   "## References\n\n"
                   "Ann Smith and Bo Lee. A first title. In Proc. ICML, 201._\n\n"
                   "Leemon Baird. Residual algorithms. In\n_Machine Learning Proceedings 1995._\n\n"
                   "## A Appendix\n\nMore text.\n\n## References\n\n"
                   "Diederik Kingma and Jimmy Ba. Adam: A method for stochastic optimization. "
                   "In ICLR, 2015.\n")
    assert [r.raw.split(".")[0] for r in paper.references] == [
        "Ann Smith and Bo Lee", "Leemon Baird", "Diederik Kingma and Jimmy Ba"]
    assert [bool(c.reference_keys) for c in paper.citations] == [False, True, True]
