"""Sub-commands from other distributions: the ``ripplemem.cli`` entry-point group.

An entry point ``name = "module:app"`` (a :class:`typer.Typer`) becomes ``ripplemem name ...``.
``bench`` belongs to the ``ripplemem-bench`` distribution (``benchmarks/`` of the repository);
without it, ``ripplemem bench`` says how to install it instead of failing.
"""

from __future__ import annotations

from importlib.metadata import entry_points

import typer

GROUP = "ripplemem.cli"
#: Sub-commands that other distributions of this repository provide, and how to install them.
KNOWN = {
    "bench": (
        "the benchmark harness is a distribution of its own: install it with "
        "`pip install -e benchmarks` from a checkout of the repository (or `make install`)"
    ),
}


def add_plugins(app: typer.Typer, *, group: str = GROUP) -> None:
    """Add every installed sub-command of ``group`` to ``app``; a stub for missing known ones."""
    found = set()
    for entry in entry_points(group=group):
        if entry.name in found:
            continue
        app.add_typer(entry.load(), name=entry.name)
        found.add(entry.name)
    for name, hint in KNOWN.items():
        if name not in found:
            app.command(
                name=name,
                help=f"Not installed: {hint}.",
                context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
                add_help_option=False,
            )(_missing(name, hint))


def _missing(name: str, hint: str):
    def command(ctx: typer.Context) -> None:
        from ripplemem.cli.common import fail

        fail(f"`ripplemem {name}` is not installed: {hint}")

    return command
