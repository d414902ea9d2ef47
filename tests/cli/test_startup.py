"""Instant commands: the CLI imports the heavy stacks (LangGraph, LangChain, llama.cpp,
onnxruntime) only in the commands that need them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import get_args

import pytest

from papermind.cli.search import SEARCH_MODES, SECTION_KINDS
from papermind.domain import SearchMode, SectionKind

HEAVY = ("langgraph", "langchain", "langchain_core", "xllamacpp", "onnxruntime")
PROBE = """
import json, sys
from papermind.cli.app import main
sys.argv = ["papermind", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
heavy = sorted({m.split(".")[0] for m in sys.modules} & set(HEAVY))
sys.stderr.write("HEAVY=" + json.dumps(heavy) + "\\n")
"""


def _heavy_after(args: list[str], home: Path, **env: str) -> list[str]:
    code = f"HEAVY = {HEAVY!r}\n{PROBE}"
    run = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120,
        env={**os.environ, "PAPERMIND_HOME": str(home), **env})
    line = next(ln for ln in run.stderr.splitlines() if ln.startswith("HEAVY="))
    return list(json.loads(line.removeprefix("HEAVY=")))


def test_importing_the_cli_loads_no_heavy_stack() -> None:
    code = ("import sys, papermind.cli.app\n"
            f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    assert out.strip() == "[]"


def test_importing_the_cli_loads_neither_numpy_nor_pydantic() -> None:
    """--help stays instant: no command module imports the domain, services or ingest at
    load time (each once crept in through a top-level import)."""
    code = ("import sys, papermind.cli.app\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'numpy', 'pydantic'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("args", [["--help"], ["search", "--help"], ["list"]])
def test_light_commands_load_no_heavy_stack(args: list[str], tmp_path: Path) -> None:
    assert _heavy_after(args, tmp_path) == []


def test_show_and_bm25_search_load_no_heavy_stack(tmp_path: Path) -> None:
    paper = tmp_path / "p.md"
    paper.write_text("# Graph kernels\n\n## Method\n\nWe count walks in graphs.\n")
    home = tmp_path / "home"
    none = {"PAPERMIND_SEARCH__EMBEDDER": "none"}
    subprocess.run([sys.executable, "-c", "from papermind.cli.app import main; main()",
                    "add", str(paper)], check=True, capture_output=True, timeout=120,
                   env={**os.environ, "PAPERMIND_HOME": str(home), **none})
    listed = subprocess.run([sys.executable, "-c", "from papermind.cli.app import main; main()",
                             "list", "--json"], check=True, capture_output=True, text=True,
                            timeout=120, env={**os.environ, "PAPERMIND_HOME": str(home)})
    paper_id = json.loads(listed.stdout)[0]["id"]
    assert _heavy_after(["show", paper_id[:8]], home) == []
    assert _heavy_after(["search", "walks", "--mode", "bm25"], home) == []


def test_spelled_out_literals_match_the_domain() -> None:
    assert get_args(SearchMode) == SEARCH_MODES
    assert get_args(SectionKind) == SECTION_KINDS
