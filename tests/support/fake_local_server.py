"""A stand-in for the bundled model's server process (``llm.local_server_main``): the same
arguments and state file, the mock OpenAI server behind it, no model. Run as a module by
``llm.local_server`` when a test points ``SERVER_MODULE`` here."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from papermind.llm import local_server
from papermind.llm.local import BundledModel
from papermind.llm.local_server import TOKEN_ENV, ServerState, write_state
from papermind.llm.local_server_main import parse_args
from papermind.llm.testing import MockOpenAIServer

FAKE_MODEL = BundledModel("tiny-test-model", (), "0" * 64, "Apache-2.0")
ROOT = Path(__file__).resolve().parents[2]


def use_fake_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``llm.local_server`` start this stand-in (for FAKE_MODEL) instead of llama.cpp."""
    monkeypatch.setattr(local_server, "SERVER_MODULE", "tests.support.fake_local_server")
    monkeypatch.setattr(local_server, "require_bundled",
                        lambda wanted="auto": (FAKE_MODEL, ROOT / "no-model.gguf"))
    monkeypatch.chdir(ROOT)  # so that `python -m tests.support...` resolves


def main() -> int:
    args = parse_args(sys.argv[1:])
    token = os.environ.pop(TOKEN_ENV, "")
    if os.environ.get("FAKE_LOCAL_SERVER_FAIL"):
        print("cannot load the model: broken file", flush=True)
        return 1
    with MockOpenAIServer(model=args.name) as mock:
        args.folder.mkdir(parents=True, exist_ok=True)
        write_state(args.folder, ServerState(os.getpid(), mock.port, token, args.name,
                                             args.threads, args.parallel, time.time()))
        print(f"fake server on {mock.port}, threads {args.threads}, "
              f"OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY')}", flush=True)
        time.sleep(args.idle_stop)
    return 0


if __name__ == "__main__":
    sys.exit(main())
