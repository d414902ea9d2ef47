"""A fast subset of the grounding benchmarks on real papers (skips without ../shared/data).

Full runs: bench/grounding_perturbation.py and bench/reference_grounding.py.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from pathlib import Path

from bench.latex_truth import bib_items, cite_keys, invented_citations

from papermind.domain import Paper
from papermind.evaluation.perturb.claims import claim_cases
from papermind.evaluation.perturb.edits import build_cases
from papermind.evaluation.perturb.quotes import Body
from papermind.grounding import QuoteLocator, ReferenceResolver, check_claim
from papermind.ingest import parse_file

PAPERS = ("pdfs/science_parse/P14-1059.pdf", "pdfs/ai_scientist_fewshot/attention.pdf",
          "pdfs/s2orc_doc2json/N18-3011.pdf",
          "pdfs/generated_with_latex/gan_diffusion/gan_diffusion.pdf")
LATEX = ("gan_diffusion", "layerwise_lr_grokking", "rl_lr_adaptation")


@cache
def parsed(path: Path) -> Paper:
    return parse_file(path)


def test_perturbed_quotes_on_real_papers(shared_data: Path) -> None:
    papers = {name: parsed(shared_data / name) for name in PAPERS}
    cases = build_cases([Body(name, p) for name, p in papers.items()], per_kind=5)
    locators = {name: QuoteLocator(p) for name, p in papers.items()}
    right: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for case in cases:
        e = locators[case.paper].locate(case.quote)
        at_origin = e.anchor is not None and (e.anchor.page, e.anchor.line_start) == (
            case.page, case.line)
        total[case.kind] += 1
        clean = e.found and e.support.by != "code"  # no difference code objects to
        right[case.kind] += (clean and at_origin) if case.positive else not clean
    genuine = [k for k in total if k.startswith("genuine")]
    assert len(genuine) >= 5 and sum(total[k] for k in genuine) >= 80
    assert sum(right[k] for k in genuine) >= 0.98 * sum(total[k] for k in genuine), right
    for kind in ("number_changed", "word_changed", "words_dropped", "paraphrase",
                 "fabricated_stitched", "fabricated_swapped", "fabricated_foreign"):
        assert total[kind] >= 10, kind
        assert right[kind] == total[kind], f"{kind}: {total[kind] - right[kind]} clean"
    assert right["ellipsis"] >= 0.9 * total["ellipsis"]


def test_cite_keys_resolve_and_invented_references_do_not(shared_data: Path) -> None:
    cites = right = invented = rejected = 0
    for name in LATEX:
        folder = shared_data / "pdfs" / "generated_with_latex" / name
        resolver = ReferenceResolver(parsed(folder / f"{name}.pdf"))
        items = bib_items((folder / "latex" / "template.bbl").read_text(encoding="utf-8"))
        by_key = {i.key: i for i in items}
        for key, narrative in cite_keys((folder / "latex" / "template.tex").read_text("utf-8")):
            item = by_key.get(key)
            if item is None:  # a key the .bbl does not list (natbib prints '?')
                continue
            got = resolver.resolve(item.cited(narrative))
            cites += 1
            right += got is not None and item.title.lower()[:20] in got.raw.lower()
        for fake in invented_citations(items, random.Random(name)):
            invented += 1
            rejected += resolver.resolve(fake) is None
    assert cites >= 40 and right >= 0.95 * cites
    assert invented >= 60 and rejected == invented


def test_claim_checks_around_real_quotes(shared_data: Path) -> None:
    papers = {name: parsed(shared_data / name) for name in PAPERS}
    bodies = [Body(name, p) for name, p in papers.items()]
    passed: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for body in bodies:
        locator = QuoteLocator(papers[body.name])
        for case in claim_cases(body, [b for b in bodies if b is not body], random.Random(3), 6):
            reasons = check_claim(case.claim, locator.locate(case.quote), locator.paper)
            total[case.kind] += 1
            passed[case.kind] += not reasons
    assert total["claim_restated"] >= 20 and passed["claim_restated"] >= 0.95 * total["claim_restated"]
    assert passed["claim_missing_table"] == 0 and passed["claim_foreign_name"] == 0
    assert passed["claim_number_changed"] <= 0.1 * total["claim_number_changed"]


def test_code_support_checks_on_perturbed_claims_citing_real_lines(shared_data: Path) -> None:
    """The targets of bench/support_checks.py on a few papers, through `verify`."""
    from papermind.evaluation.perturb.support import support_cases
    from papermind.grounding import GroundingEngine
    from papermind.services.verification import verify

    engine = GroundingEngine()
    lowered: Counter[str] = Counter()
    contradicted: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for name in PAPERS:
        paper = parsed(shared_data / name)
        for case in support_cases(name, paper, random.Random(name), 8):
            support = verify(paper, case.claim, lines=case.cited, grounder=engine).evidence.support
            assert support.verdict != "supported"  # code alone never says supported
            total[case.kind] += 1
            lowered[case.kind] += support.by == "code"
            contradicted[case.kind] += support.verdict == "contradicted"
    assert total["unchanged"] >= 30 and contradicted["unchanged"] == 0
    for kind, share in (("number", 0.95), ("name_replaced", 0.95), ("name_added", 0.95),
                        ("negation", 0.9), ("direction", 0.9)):
        assert total[kind] >= 10 and lowered[kind] >= share * total[kind], (kind, lowered, total)
