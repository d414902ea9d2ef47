"""Deep-thinking QA over the library: plan, gather evidence adaptively, check, answer with sources."""
