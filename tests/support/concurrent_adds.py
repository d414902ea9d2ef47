"""One process adding papers to a library: ``python -m tests.support.concurrent_adds HOME URL
TAG N`` adds N distinct Markdown papers through the container and prints one status a line."""

from __future__ import annotations

import sys
from pathlib import Path

from papermind.config import Settings
from papermind.services.container import Container


def paper_text(tag: str, n: int) -> str:
    return (f"# Paper {tag} number {n}\n\n## Method\nWe study {tag} variant {n} of gradient "
            f"clipping on {n * 7} tasks and report accuracy per task.\n")


def main(home: Path, url: str, tag: str, count: int) -> None:
    settings = Settings(home=home)
    settings = settings.model_copy(update={
        "search": settings.search.model_copy(update={"embedder": "hashing"}),
        "storage": settings.storage.model_copy(update={"url": url})})
    folder = home.parent / f"in-{tag}"
    folder.mkdir(parents=True, exist_ok=True)
    with Container(settings) as container:
        for n in range(count):
            path = folder / f"{tag}-{n}.md"
            path.write_text(paper_text(tag, n))
            [result] = container.library.add([path])
            print(result.status, result.reason, flush=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4]))
