"""``ripplemem keys create|list|revoke``: the service's API keys, stored hashed in the store."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated

import typer

from ripplemem.cli.common import console, error_console, friendly
from ripplemem.cli.serve import StoreUrl

if TYPE_CHECKING:
    from ripplemem.core.keys import Keys

keys_app = typer.Typer(
    help="API keys of `ripplemem serve`: each is bound to namespaces; only its hash is stored.",
    no_args_is_help=True,
)


@contextmanager
def _keys(store: str | None, *, existing: bool = False) -> Iterator[Keys]:
    """The keys of the store; ``existing``: the command only reads or revokes, so a store that
    is not there is refused, not created."""
    from ripplemem.core.keys import open_keys
    from ripplemem.settings import Settings

    overrides = {"store": store} if store else {}
    with open_keys(Settings.from_env(None, **overrides).store, existing=existing) as keys:
        yield keys


@keys_app.command()
@friendly
def create(
    namespace: Annotated[
        list[str] | None,
        typer.Option("--namespace", "-n", help="A namespace the key may use (repeat for more)."),
    ] = None,
    read_only: Annotated[bool, typer.Option("--read-only", help="Search and read only.")] = False,
    admin: Annotated[bool, typer.Option("--admin", help="Every namespace.")] = False,
    label: Annotated[str, typer.Option(help="A note for `keys list` (who holds it).")] = "",
    store: StoreUrl = None,
) -> None:
    """Create a key and print its secret once (it cannot be shown again)."""
    from ripplemem.errors import InvalidInputError

    if not namespace and not admin:
        raise InvalidInputError("name at least one --namespace for the key (or give --admin)")
    if namespace and admin:
        raise InvalidInputError(
            "--admin gives the key every namespace, so --namespace would mean nothing: give "
            "either --admin or the key's --namespace values"
        )
    with _keys(store) as keys:
        key, secret = keys.create(namespace or [], read_only=read_only, admin=admin, label=label)
    from ripplemem.cli.render import for_terminal

    scope = "every namespace" if admin else ", ".join(key.namespaces)
    rights = "read-only" if read_only else "read-write"
    typer.echo(secret)  # alone on stdout: KEY=$(ripplemem keys create ...)
    error_console().print(
        for_terminal(f"{key.id}: {rights}, {scope}. Keep the secret above: it is not stored.")
    )


@keys_app.command(name="list")
@friendly
def list_keys(store: StoreUrl = None) -> None:
    """List the keys (ids and rights; secrets are never stored)."""
    from rich.table import Table

    from ripplemem.cli.render import for_terminal

    with _keys(store, existing=True) as store_keys:
        keys = store_keys.list()
    # the id is what `keys revoke` takes: it is never cut; the other columns fold or go first
    revoked = any(key.revoked_at for key in keys)
    table = Table(title=f"{len(keys)} keys")
    table.add_column("id", no_wrap=True, min_width=max((len(key.id) for key in keys), default=2))
    table.add_column("namespaces", overflow="fold")
    table.add_column("rights", overflow="fold")
    table.add_column("label", overflow="fold")
    table.add_column("created", overflow="fold")
    if revoked:
        table.add_column("revoked", overflow="fold")
    for key in keys:
        rights = ("admin " if key.admin else "") + ("read-only" if key.read_only else "read-write")
        # an admin key uses every namespace; a key bound to a namespace named "*" shows its name
        scope = "every namespace" if key.admin else ", ".join(key.namespaces) or "-"
        row = [
            for_terminal(key.id), for_terminal(scope), rights, for_terminal(key.label),
            key.created_at.isoformat(sep=" ", timespec="minutes"),
        ]
        if revoked:
            row.append(key.revoked_at.isoformat(sep=" ", timespec="minutes") if key.revoked_at else "")
        table.add_row(*row)
    console().print(table)


@keys_app.command()
@friendly
def revoke(
    key_id: Annotated[str, typer.Argument(help="The key's id (see `ripplemem keys list`).")],
    store: StoreUrl = None,
) -> None:
    """Revoke a key: requests with it get 401 from then on."""
    with _keys(store, existing=True) as keys:
        keys.revoke(key_id)
    from ripplemem.cli.render import for_terminal

    console().print(for_terminal(f"revoked {key_id}"))
