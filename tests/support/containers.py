"""Settings and a container on a fresh home with the hashing embedder: the real index path, no model load."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from papermind.config import SearchSettings, Settings, load_settings
from papermind.services.container import Container


def hashing_settings(home: Path) -> Settings:
    """The settings of ``home`` (its config file and environment), the hashing embedder."""
    return load_settings(home).model_copy(update={"search": SearchSettings(embedder="hashing")})


@contextmanager
def hashing_container(home: Path) -> Iterator[Container]:
    settings = Settings(home=home)
    settings = settings.model_copy(
        update={"search": settings.search.model_copy(update={"embedder": "hashing"})})
    with Container(settings) as container:
        yield container
