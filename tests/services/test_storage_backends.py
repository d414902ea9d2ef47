"""The storage registry: a backend is one entry, and nothing else asks which one it is."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from papermind.config import Settings, StorageSettings
from papermind.db import Database, SqlDatabase
from papermind.domain.job import JobRequest
from papermind.errors import ConfigError
from papermind.library.ports import SearchBackend, embedded_search
from papermind.library.search import SearchIndex
from papermind.services.checkpoints import memory_checkpointer
from papermind.services.container import Container
from papermind.services.job_store import JobRecords, JobStore
from papermind.services.storage import BACKENDS, StorageBackend, backend_for, open_database
from tests.library.search_fixtures import make_paper

SRC = Path(__file__).resolve().parents[2] / "src" / "papermind"
PREFIX = "sqlite-copy:///"
searched: list[str] = []


def copy_search(db: SqlDatabase, *, lexical_min_rows: int | None = None) -> SearchBackend:
    searched.append("copy")
    return embedded_search(db, lexical_min_rows=None)


def open_copy(url: str) -> SqlDatabase:
    return Database(url[len(PREFIX):], search_stores=copy_search)


def copy_jobs(url: str, db: Callable[[], SqlDatabase]) -> JobRecords:
    return JobStore(db())


@asynccontextmanager
async def copy_checkpointer(url: str, path: Path) -> AsyncIterator[Any]:
    yield memory_checkpointer()


COPY = StorageBackend(name="copy", schemes=("sqlite-copy",), url_example=PREFIX + "<path>",
                      database=open_copy, job_store=copy_jobs, checkpointer=copy_checkpointer)
"""A third backend, written here: a SQLite file under another scheme, with checkpoints in
memory. Registering it is the only change anywhere."""


@pytest.fixture
def copy_backend(monkeypatch: pytest.MonkeyPatch) -> StorageBackend:
    monkeypatch.setitem(BACKENDS, COPY.name, COPY)
    searched.clear()
    return COPY


def test_a_third_backend_is_one_registry_entry(copy_backend: StorageBackend,
                                               tmp_path: Path) -> None:
    url = f"{PREFIX}{tmp_path / 'copy.sqlite3'}"
    settings = Settings(home=tmp_path / "home", storage=StorageSettings(url=url))
    with Container(settings) as box:
        assert box.storage_backend is copy_backend and box.storage_url == url
        assert box.papers.list() == []
        job, created = box.job_store.create_or_get_active(
            "j1", JobRequest(kind="question", question="why?"))
        assert created and box.job_store.get("j1").id == job.id
        assert box.job_service(runners={}).queue is None, "no queue: jobs run in process"

        async def saver_kind() -> str:
            async with box.checkpointer() as saver:
                return type(saver).__name__
        assert asyncio.run(saver_kind()) == "InMemorySaver"
        index = SearchIndex(box.db, None)
        paper = make_paper([("Body", "other", ["Offensive tweets annotated by three people."])])
        index.index_paper(paper)
        assert searched == ["copy"], "the search stores come from the backend's handle"
        assert [hit.paper_id for hit in index.search("tweets", mode="bm25")] == [paper.id]
    assert not (tmp_path / "home" / "checkpoints.sqlite3").exists()


def test_backends_are_found_by_scheme_and_unknown_ones_are_config_errors() -> None:
    assert backend_for("sqlite:///x.db").name == "sqlite"
    assert backend_for("postgresql://u@h/db").name == backend_for("postgres://h/db").name \
        == "postgres"
    with pytest.raises(ConfigError, match="unsupported storage.url 'mysql'") as error:
        open_database("mysql://localhost/lib")
    assert error.value.hint is not None
    assert all(backend.url_example in error.value.hint for backend in BACKENDS.values())
    with pytest.raises(ConfigError, match="unsupported storage.url"):
        open_database("sqlite://relative.db")  # sqlite:/// (three slashes) names a file


def test_only_the_registry_names_a_backend() -> None:
    """No ``on_postgres``, ``dialect`` or URL-prefix branches outside the storage registry
    and the backends' own modules (the issue's check, kept by a test)."""
    branch = re.compile(r"on_postgres|\.dialect\b|startswith\(\(?[\"'](postgres|sqlite:)")
    own = {SRC / "services" / "storage", SRC / "db"}
    found = [f"{path.relative_to(SRC)}:{number}"
             for path in sorted(SRC.rglob("*.py")) if not any(d in path.parents for d in own)
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if branch.search(line)]
    assert found == []


def test_opening_the_library_loads_no_search_stack(tmp_path: Path) -> None:
    """`list` and `show` open the library: the search stores (numpy, the indexes) are
    imported when search is first built, not when the backend opens the handle."""
    code = ("import sys\nfrom papermind.services.storage import open_database\n"
            f"open_database({'sqlite:///' + str(tmp_path / 'lib.sqlite3')!r})\n"
            "print(sorted({'numpy', 'papermind.library.ports'} & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    assert out.strip() == "[]"
