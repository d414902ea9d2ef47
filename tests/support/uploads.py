"""Following browser uploads (POST /ui/upload answers at once; the add runs behind it)."""

from __future__ import annotations

import time
from typing import Any

import httpx


def upload_ids(location: str) -> list[str]:
    """The upload ids in the uploads page address a POST /ui/upload redirected to."""
    assert location.startswith("/uploads?ids="), location
    return [i for i in location.split("=", 1)[1].split(",") if i]


def wait_for_uploads(client: httpx.Client, location: str,
                     timeout: float = 60.0) -> list[dict[str, Any]]:
    """Poll each upload until it is finished; their last states, in order."""
    deadline = time.monotonic() + timeout
    done: list[dict[str, Any]] = []
    for upload_id in upload_ids(location):
        while True:
            state: dict[str, Any] = client.get(f"/ui/uploads/{upload_id}").json()
            if state["finished"]:
                done.append(state)
                break
            if time.monotonic() > deadline:
                raise AssertionError(f"upload {upload_id} still {state['state']}")
            time.sleep(0.05)
    return done
