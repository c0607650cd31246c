"""What every ``ripplemem`` command shares: error handling, consoles, opening the memory."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from ripplemem.memory import Memory

F = TypeVar("F", bound=Callable)


def friendly(command: F) -> F:
    """Turn ripplemem errors into a red one-line message and exit code 2."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        from ripplemem.errors import RippleMemError

        try:
            return command(*args, **kwargs)
        except RippleMemError as error:
            fail(str(error))

    return wrapper  # type: ignore[return-value]


def fail(message: str) -> None:
    from rich.markup import escape

    error_console().print(f"[bold red]error:[/] [red]{escape(message)}[/]")
    raise typer.Exit(code=2)


def console() -> Console:
    from rich.console import Console

    return Console(highlight=False)


def error_console() -> Console:
    from rich.console import Console

    return Console(stderr=True, highlight=False)


def open_memory(store: str | Path | None) -> Memory:
    from ripplemem.memory import Memory
    from ripplemem.settings import Settings

    overrides = {"store": str(store)} if store is not None else {}
    return Memory(Settings.from_env(None, **overrides))


@contextmanager
def progress_bar(out: Console) -> Iterator[Callable[[str, int, int | None], None]]:
    """A transient rich progress bar; yields ``progress(what, done, total or None)``."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=out, transient=True,
    ) as bar:
        task = bar.add_task("loading", total=None)

        def progress(what: str, done: int, total: int | None) -> None:
            bar.update(task, description=what, completed=done, total=total)

        yield progress


def write_json(path: Path, result: dict, out: Console) -> None:
    """Write a result dict as indented JSON (creating folders) and say so."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    out.print(f"wrote {path}")
