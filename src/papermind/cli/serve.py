"""``papermind serve``: the REST API, its background jobs and the web UI."""

from __future__ import annotations

from typing import Annotated

import typer

from papermind.cli.context import state, wants_json


def serve(
    ctx: typer.Context,
    host: Annotated[str | None, typer.Option(help="Listen address (default 127.0.0.1).")] = None,
    port: Annotated[int | None, typer.Option(help="Listen port (default 8765).")] = None,
    token: Annotated[str | None, typer.Option(
        help="API token; required when listening off loopback (or PAPERMIND_API__TOKEN).")] = None,
    in_process_jobs: Annotated[bool, typer.Option(
        "--in-process-jobs", help="Run jobs in this process even when the library is on "
        "PostgreSQL (default there: only enqueue them for `papermind worker`).")] = False,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Log JSON lines (the default when stderr is not a terminal; plain "
                       "lines in a terminal).")] = False,
) -> None:
    """Serve the REST API (docs at /docs), background jobs and the web UI."""
    import uvicorn

    from papermind.api.app import create_app
    from papermind.api.http_protocol import guarded_protocol
    from papermind.api.security import check_bind
    from papermind.services.logs import configure_logging, wants_json_logs

    settings = state(ctx).settings
    api = settings.api.model_copy(update={k: v for k, v in
                                          {"host": host, "port": port, "token": token}.items()
                                          if v is not None})
    settings = settings.model_copy(update={"api": api})
    if in_process_jobs:
        jobs = settings.jobs.model_copy(update={"runner": "in_process"})
        settings = settings.model_copy(update={"jobs": jobs})
    check_bind(api.host, api.token)
    configure_logging(as_json=wants_json_logs(wants_json(ctx, as_json)))
    app = create_app(settings)
    app.state.container.papers.count()  # open (or create) the library here, not in uvicorn's
    # startup: a full disk or an unreadable library is then one line, not a traceback
    uvicorn.run(app, host=api.host, port=api.port, log_config=None,
                timeout_graceful_shutdown=5, http=guarded_protocol(api.header_timeout_s),
                h11_max_incomplete_event_size=64 * 1024)


def register(app: typer.Typer) -> None:
    app.command()(serve)
