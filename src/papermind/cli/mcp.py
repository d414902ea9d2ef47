"""``papermind mcp``: the library as an MCP server for assistants (Claude Desktop, IDEs...)."""

from __future__ import annotations

from typing import Annotated

import typer

from papermind.cli.context import state, wants_json


def mcp(
    ctx: typer.Context,
    http: Annotated[bool, typer.Option(
        "--http", help="Serve streamable HTTP at http://HOST:PORT/mcp instead of stdio.")] = False,
    host: Annotated[str, typer.Option(
        help="Listen address with --http; off loopback a token is required.")] = "127.0.0.1",
    port: Annotated[int | None, typer.Option(
        help="Listen port with --http (default mcp.port, 8766).")] = None,
    token: Annotated[str | None, typer.Option(
        help="API token clients send as 'Authorization: Bearer' with --http "
             "(or PAPERMIND_API__TOKEN); required off loopback.")] = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Log JSON lines to stderr (the default when stderr is not a terminal; "
                       "stdout carries the MCP messages).")] = False,
) -> None:
    """Serve the library to AI assistants over the Model Context Protocol (stdio by default)."""
    from papermind.errors import ConfigError
    from papermind.services.logs import configure_logging, wants_json_logs

    try:
        from papermind.mcp.server import build_server, serve_stdio
    except ModuleNotFoundError as err:
        if err.name and err.name.split(".")[0] == "mcp":
            raise ConfigError("the MCP SDK is not installed",
                              hint="pip install 'papermind[mcp]'") from err
        raise
    settings = state(ctx).settings
    configure_logging(as_json=wants_json_logs(wants_json(ctx, as_json)))
    server = build_server(settings)
    if not http:
        serve_stdio(server)
        return
    from papermind.mcp.http_transport import serve_http

    serve_http(server, host, port or settings.mcp.port, token or settings.api.token)


def register(app: typer.Typer) -> None:
    app.command("mcp")(mcp)
