"""Everything that measures the product rather than being it.

- metrics, compare, qa_sets, published, report, plots: scores, data sets and the HTML report
- perturb/: the planters: quotes, claims and flaws built by rule from real papers
- runs/: the evaluation use cases (``papermind evaluate``): a client of services, like bench

Nothing in the product imports this package (the import contracts say so).
"""
