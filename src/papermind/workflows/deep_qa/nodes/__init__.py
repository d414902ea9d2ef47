"""Deep QA nodes, grouped by stage: planning, gathering, answering."""
