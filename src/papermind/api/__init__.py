"""REST API (FastAPI): parse -> one service call -> render. ``create_app`` builds it."""
