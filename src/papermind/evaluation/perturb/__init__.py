"""Cases built by rule from real papers to measure the product's checks: quotes for the
locator (quotes, edits), claims for the claim and support checks (claims, support), and
flaws planted in a paper's text for the review and pre-submission checks (flaws, doc,
table_flaws, check_flaws). Grounding keeps the checks; the planters live here."""
