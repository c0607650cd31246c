"""``ripplemem mcp``: the memory tools over stdio, for desktop MCP clients."""

from __future__ import annotations

from typing import Annotated

import typer

from ripplemem.cli.common import friendly
from ripplemem.cli.serve import StoreUrl


@friendly
def mcp(
    namespace: Annotated[
        str, typer.Option("--namespace", "-n", help="The one namespace every tool call uses.")
    ],
    store: StoreUrl = None,
    read_only: Annotated[
        bool, typer.Option("--read-only", help="Offer search and reads; refuse writes.")
    ] = False,
) -> None:
    """Serve MCP over stdin/stdout (Claude Desktop and other local clients) for one namespace."""
    import logging

    from ripplemem.cli.serve import open_for_server
    from ripplemem.memory import AsyncMemory
    from ripplemem.server.access import Access

    try:
        from ripplemem.server.mcp_tools import build_mcp
    except ImportError as error:
        from ripplemem.errors import missing_extra

        raise missing_extra("mcp", "server") from error
    from ripplemem.core.identity import namespace_of

    logging.basicConfig(level=logging.WARNING)  # stderr; stdout carries the protocol only
    namespace = namespace_of(namespace)  # a blank name is refused here, as by every verb
    access = Access.fixed(namespace, read_only=read_only)
    memory = open_for_server(store)
    server = build_mcp(AsyncMemory(over=memory), lambda ctx: (access, namespace))
    try:
        server.run("stdio")
    finally:
        memory.close()
