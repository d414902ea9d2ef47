"""The ``cli`` fixture for CLI tests (defined in tests/support/cli.py)."""

from tests.support.cli import cli

__all__ = ["cli"]
