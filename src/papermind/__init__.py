"""PaperMind: read, question and pre-review academic papers with checked citations."""

__version__ = "0.1.0"
