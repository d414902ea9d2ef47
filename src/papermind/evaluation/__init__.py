"""Evaluation harness parts that need no services: metrics, planted flaws, published
references and the HTML report. Pure: imports the domain at most."""
