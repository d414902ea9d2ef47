"""The evaluation use cases behind ``papermind eval``: plan, run or resume, compare
(jobs); the run loop and its store (loop, store); one Evaluation per kind (review, qa,
reading) with what they score (flaw_catches, regression). They call the product's use
cases, so they sit above services."""
