"""Everything that measures the product rather than being it.

- metrics, compare, qa_sets, published, report, plots: scores, data sets and the HTML report
- perturb/: the planters: quotes, claims and flaws built by rule from real papers
- runs/: the evaluation use cases (``papermind eval``): a client of services, like bench

Only the CLI's ``evaluate`` (and bench/, evals/) import it: the layers contract keeps
services and everything below them from importing it.
"""
