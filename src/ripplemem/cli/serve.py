"""``ripplemem serve``: the REST API and MCP (Streamable HTTP) over one store."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from ripplemem.cli.common import console, friendly

if TYPE_CHECKING:
    from ripplemem.memory import Memory

StoreUrl = Annotated[
    str | None,
    typer.Option("--store", help="Store path or URL \\[default: $RIPPLEMEM_STORE or .ripplemem/memory.db]"),
]


@friendly
def serve(
    store: StoreUrl = None,
    host: Annotated[str, typer.Option(help="Address to bind.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=0, max=65535)] = 8765,
    no_auth: Annotated[
        bool, typer.Option("--no-auth", help="No API keys (only on a loopback address).")
    ] = False,
    mcp: Annotated[bool, typer.Option("--mcp/--no-mcp", help="Serve MCP at /mcp.")] = True,
    max_body_mb: Annotated[float, typer.Option(help="Largest request body (MB).", min=0.01)] = 4.0,
    max_import_mb: Annotated[float, typer.Option(help="Largest /v1/import body (MB).", min=0.01)] = 256.0,
    read_threads: Annotated[int, typer.Option(help="Threads for searches and reads.", min=1)] = 4,
    write_threads: Annotated[int, typer.Option(help="Threads for adds and deletes.", min=1)] = 2,
    search_processes: Annotated[
        str,
        typer.Option(
            help="Worker processes for searches: a number (0: threads of this process) or auto "
            "(one more than the cores on a machine with several, else 0; always 0 for an "
            "in-memory store). Workers catch up with added rows; a delete makes them reload the "
            "namespace's vectors.",
        ),
    ] = "auto",
    drain_timeout: Annotated[
        float,
        typer.Option(
            help="Seconds to let in-flight requests and queued adds finish on SIGTERM (a write "
            "already running always finishes).",
            min=0,
        ),
    ] = 120.0,
    request_budget: Annotated[
        float,
        typer.Option(
            help="Seconds of CPU an add, update, search or answer may take (0: no limit); a "
            "larger add is refused with 413 up front or stopped with 503, and stores nothing.",
            min=0,
        ),
    ] = 10.0,
    job_lease: Annotated[
        float,
        typer.Option(
            help="Seconds before another server over the same PostgreSQL store runs again the "
            "background adds of a server that stopped (it renews its lease every third of it).",
            min=0.3,
        ),
    ] = 30.0,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "info",
) -> None:
    """Serve the REST API (/v1, /openapi.json, /docs) and MCP (/mcp) until SIGTERM or Ctrl-C."""
    import math

    from ripplemem.errors import ConfigurationError

    uvicorn = _uvicorn()  # first: without the [server] extra, say which extra to install
    from ripplemem.server.app import ServerOptions, create_app, is_loopback

    options = ServerOptions(
        max_body_bytes=int(max_body_mb * 1024 * 1024),
        max_import_bytes=int(max_import_mb * 1024 * 1024),
        read_threads=read_threads,
        write_threads=write_threads,
        drain_timeout_s=drain_timeout,
        request_budget_s=request_budget or None,
        host=host,
        mcp=mcp,
        search_processes=0,
        job_lease_s=job_lease,
    )
    if no_auth and not is_loopback(host):  # before opening anything; create_app checks it too
        raise ConfigurationError(
            f"--no-auth is accepted only on a loopback address (127.0.0.1, ::1), not {host!r}: "
            "create keys with `ripplemem keys create` instead"
        )
    memory = open_for_server(store)
    options.search_processes = search_workers(search_processes, memory)
    out = console()
    if not no_auth and not memory.keys.list():
        out.print(
            "[yellow]no API key in this store yet:[/] every /v1 request will get 401 until you run "
            "`ripplemem keys create --store ... --namespace NAME`"
        )
    options.announce = lambda line: out.print(line, soft_wrap=True)
    app = create_app(memory, auth=not no_auth, options=options)
    listening = _bind(host, port)  # bound first, so --port 0 can print the port it got
    bound_port = listening.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    out.print(
        f"ripplemem serving {memory.store.url} on http://{shown}:{bound_port}  "
        f"(REST /v1, MCP {'/mcp' if mcp else 'off'}, docs /docs, live /healthz, ready /readyz"
        f"{', no keys' if no_auth else ''})",
        soft_wrap=True,
    )
    config = uvicorn.Config(
        app,
        log_level=log_level,
        timeout_graceful_shutdown=math.ceil(drain_timeout),  # 0: cancel in-flight requests
        lifespan="on",
    )
    uvicorn.Server(config).run(sockets=[listening])


def search_workers(value: str, memory: Memory) -> int:
    """``--search-processes``: a number from 0 to 16, or ``auto`` (cores + 1 when the machine has
    several cores and the store can be shared between processes, else 0)."""
    import os

    from ripplemem.errors import ConfigurationError

    text = value.strip().lower()
    if text == "auto":
        if hasattr(os, "sched_getaffinity"):
            cores = len(os.sched_getaffinity(0))
        else:
            cores = os.cpu_count() or 1
        shared = memory.store.capabilities.shared
        return min(cores + 1, 16) if shared and cores > 1 else 0
    try:
        number = int(text)
    except ValueError:
        number = -1
    if not 0 <= number <= 16:
        raise ConfigurationError(
            f"--search-processes must be a number from 0 to 16 or auto, not {value!r}"
        )
    return number


def _bind(host: str, port: int):
    import socket

    from ripplemem.errors import ConfigurationError

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listening = socket.socket(family, socket.SOCK_STREAM)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # accepted connections inherit it: without it a keep-alive client waits ~40 ms per response
    # (Nagle's algorithm against the client's delayed ACK)
    listening.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        listening.bind((host, port))
    except OSError as error:
        listening.close()
        raise ConfigurationError(
            f"cannot listen on {host}:{port} ({error.strerror}); choose another --port or --host"
        ) from None
    listening.listen(2048)  # callers wait in the backlog until the app has started
    listening.set_inheritable(True)
    return listening


def _uvicorn():
    """uvicorn, once the [server] extra's packages are known to be installed."""
    from ripplemem.errors import missing_extra

    for package in ("fastapi", "uvicorn", "fastapi_offline"):
        try:
            __import__(package)
        except ImportError as error:
            raise missing_extra(package.replace("_", "-"), "server") from error
    import uvicorn

    return uvicorn


def open_for_server(store: str | None) -> Memory:
    """The memory at ``store`` with the RIPPLEMEM_* settings; BLAS on one thread for the process
    (requests run side by side, each on its own thread)."""
    from threadpoolctl import threadpool_limits

    from ripplemem.memory import Memory
    from ripplemem.settings import Settings

    threadpool_limits(limits=1, user_api="blas")
    overrides = {"store": store} if store else {}
    return Memory(Settings.from_env(None, **overrides))
