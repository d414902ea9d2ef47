"""Where the shared test data lives, and the papers some tests and benches read from it."""

from __future__ import annotations

import os
from pathlib import Path

SHARED_DATA = (Path(os.environ["PAPERMIND_SHARED_DATA"]) if os.environ.get("PAPERMIND_SHARED_DATA")
               else next((folder / "shared" / "data" for folder in Path(__file__).resolve().parents
                          if (folder / "shared" / "data").is_dir()),
                         Path(__file__).resolve().parents[3] / "shared" / "data"))
"""$PAPERMIND_SHARED_DATA, else ../shared/data of the repository or of a worktree's parents."""

PDF_NAMES = ["P07-1088", "P14-1059", "a7c25298c607d5bf32e3301b6b209431e2a7f830", "agarwal11",
             "bohnet09", "bunescu-acl07", "ding11", "mono04", "mooney05", "roark13", "smola10",
             "proto06", "fader11", "c921a74c209e720534939dfa191d639e647dd242", "smith07"]
"""15 real papers of the science_parse set (tests/interchange, bench/versions_and_imports)."""
