"""Single-pass cited QA: one hybrid retrieval, grounded quotes, an answer or 'cannot answer'."""
