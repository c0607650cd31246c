"""What every ``ripplemem`` command shares: error handling, consoles, opening the memory."""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TypeVar

import typer

from ripplemem.cli.interrupts import interrupted, stop_if_interrupted

if TYPE_CHECKING:
    from rich.console import Console

    from ripplemem.memory import Memory
    from ripplemem.settings import Settings

F = TypeVar("F", bound=Callable)


#: exit codes (docs/reliability.md): 0 done; 1 aborted by click; 2 a usage error (a bad option,
#: input or setting: fix the call); 3 the store failed or refused (the message says whether data
#: is safe); 4 a model provider failed; 5 a file outside the store could not be read or written;
#: 70 an internal error (a bug: please report it); 130 interrupted (Ctrl-C)
EXIT_USAGE, EXIT_STORE, EXIT_PROVIDER, EXIT_FILE, EXIT_INTERNAL, EXIT_INTERRUPTED = 2, 3, 4, 5, 70, 130
DEBUG_ENV = "RIPPLEMEM_DEBUG"


def friendly(command: F) -> F:
    """Turn every failure into a red one-line message and a documented exit code (never a
    traceback, unless ``RIPPLEMEM_DEBUG=1`` asks for one)."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except (typer.Exit, typer.Abort, SystemExit):
            raise
        except BaseException as error:  # noqa: BLE001 - a native panic is a BaseException
            explain(error)

    return wrapper  # type: ignore[return-value]


def explain(error: BaseException) -> NoReturn:
    """Print ``error`` as one line and exit with its code (re-raise it under RIPPLEMEM_DEBUG)."""
    if isinstance(error, typer.Exit | typer.Abort | typer.exceptions.TyperException | SystemExit):
        raise error
    # Whatever fails after a Ctrl-C failed because of it: a native module whose import the signal
    # cut short reports an ImportError (pybind turns the KeyboardInterrupt into one), a library
    # reports a half-loaded model. The user asked to stop; say so, not what broke on the way.
    if (isinstance(error, KeyboardInterrupt) or interrupted()) and os.environ.get(DEBUG_ENV) != "1":
        # Written without rich and before any import: Ctrl-C may have cut a module's import
        # short, and a half-imported package must not turn the message into a traceback.
        sys.stderr.write("error: interrupted; a write in progress was rolled back\n")
        sys.stderr.flush()
        raise typer.Exit(code=EXIT_INTERRUPTED)

    from ripplemem.errors import FileAccessError, ProviderError, RippleMemError, StoreError, said_on

    if os.environ.get(DEBUG_ENV) == "1" and not isinstance(error, RippleMemError):
        raise error
    said = said_on(str(error), "cli")  # a remedy in the command line's words
    if isinstance(error, StoreError):
        fail(said, EXIT_STORE)
    if isinstance(error, ProviderError):
        fail(said, EXIT_PROVIDER)
    if isinstance(error, FileAccessError):
        fail(said, EXIT_FILE)
    if isinstance(error, RippleMemError):
        fail(said, EXIT_USAGE)
    if isinstance(error, OSError):
        where = f"{error.filename}: " if error.filename else ""
        fail(f"{where}{error.strerror or error}; check the path and its permissions", EXIT_FILE)
    fail(
        f"internal error ({type(error).__name__}: {error}). A write in progress was rolled back, "
        f"so stored memories are safe. Please report it; {DEBUG_ENV}=1 shows the traceback",
        EXIT_INTERNAL,
    )


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    from ripplemem.cli.render import for_terminal

    error_console().print(f"[bold red]error:[/] [red]{for_terminal(message)}[/]")
    raise typer.Exit(code=code)


def console() -> Console:
    from rich.console import Console

    return Console(highlight=False)


def error_console() -> Console:
    from rich.console import Console

    return Console(stderr=True, highlight=False)


def store_settings(store: str | Path | None) -> Settings:
    """The settings of a command: the environment's, with ``--store`` when given."""
    from ripplemem.settings import Settings

    overrides = {"store": str(store)} if store is not None else {}
    return Settings.from_env(None, **overrides)


def open_memory(store: str | Path | None, *, existing: bool = False) -> Memory:
    """The memory at ``store`` (or the settings' store). ``existing``: a command that only reads
    (or deletes) never creates a store: where the location holds none (a SQLite file that is not
    there, a PostgreSQL schema without a store), it fails with exit 2 and one message, the same
    for every such command, before printing anything else, so a script sees the mistyped path."""
    from ripplemem.core.location import missing_store
    from ripplemem.memory import Memory

    settings = store_settings(store)
    if existing and (missing := missing_store(settings.store)) is not None:
        from ripplemem.cli.render import for_terminal

        check = "the URL's database and schema" if "://" in missing else "the path"
        error_console().print(
            f"[bold red]error:[/] [red]{for_terminal(f'no store at {missing}: this command only reads and creates none; check {check}, or add memories first with: ripplemem ingest FILE --store {missing}')}[/]",
            soft_wrap=True,
        )
        raise typer.Exit(code=EXIT_USAGE)
    return Memory(settings)


def warm(memory: Memory, *, after_s: float = 1.0) -> None:
    """Load the models before the command's work, saying so on stderr (one line) when it takes
    longer than ``after_s`` (the first call on a machine: the models load, a few seconds)."""
    import threading

    from ripplemem.extensions import stages_of, warm_up

    stages = stages_of(memory)

    def tell() -> None:
        error_console().print(
            f"[dim]loading the models: the {stages.embedder} embedder and the entity "
            "recogniser (spaCy) ...[/]",
            soft_wrap=True,
        )

    timer = threading.Timer(after_s, tell)
    timer.daemon = True
    timer.start()
    try:
        warm_up(memory)
    finally:
        timer.cancel()
    stop_if_interrupted()  # a Ctrl-C a library's import swallowed still stops before any write


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
            stop_if_interrupted()
            bar.update(task, description=what, completed=done, total=total)

        yield progress


def write_json(path: Path, result: dict, out: Console) -> None:
    """Write a result dict as indented JSON (creating folders) and say so."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    out.print(f"wrote {path}")
