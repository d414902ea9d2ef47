"""`papermind models`: the effective role -> model mapping, and a check of each endpoint."""

from __future__ import annotations

import asyncio
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from papermind.cli.context import state, wants_json
from papermind.cli.options import JsonFlag
from papermind.errors import ProviderError


def models(
    ctx: typer.Context,
    check: Annotated[bool, typer.Option(
        "--check/--no-check", help="Probe each endpoint (GET /models; local: installed?).")] = True,
    as_json: JsonFlag = False,
) -> None:
    """Show which model and temperature each role uses, and whether its endpoint answers."""
    from papermind.services.model_setup import (
        describe_local_server,
        endpoint_checks,
        local_server_info,
        real_model_hint,
        role_rows,
    )

    cli = state(ctx)
    settings = cli.settings.llm
    rows = role_rows(settings)
    statuses = asyncio.run(endpoint_checks(settings)) if check else []
    demo = any(row.bundled for row in rows)
    server = local_server_info(cli.settings)
    if wants_json(ctx, as_json):
        cli.emit_json({"roles": [vars(r) for r in rows], "demo_quality": demo,
                       "endpoints": [s.to_dict() for s in statuses], "local_server": server})
    else:
        table = Table("role", "endpoint", "provider", "model", "temp", "max tokens")
        for r in rows:
            table.add_row(r.role, r.endpoint, r.provider, escape(r.model), f"{r.temperature:g}",
                          str(r.max_tokens))
        cli.console.print(table)
        if statuses:
            checks = Table("endpoint", "model", "ok", "detail")
            for s in statuses:
                checks.add_row(s.endpoint, escape(s.model), "yes" if s.ok else "NO",
                               escape(s.detail))
            cli.console.print(checks)
        if demo or server["running"]:
            cli.console.print(describe_local_server(server), markup=False, soft_wrap=True)
        if demo:
            cli.err.print("Roles on the bundled local model give demo-quality output. For real "
                          f"results, {real_model_hint()}.", markup=False,
                          soft_wrap=True)
    failed = [s.endpoint for s in statuses if not s.ok]
    if failed:
        raise ProviderError(f"endpoint check failed: {', '.join(failed)}")


def register(app: typer.Typer) -> None:
    app.command("models")(models)
