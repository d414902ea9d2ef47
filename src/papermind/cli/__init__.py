"""The ``papermind`` command line: parse -> one service call -> render."""
