"""The ``ripplemem`` command: a thin adapter over :class:`ripplemem.memory.Memory`.

Every command that works in a namespace takes ``--namespace`` (``-n``) or its synonym
``--user-id``, narrowed by ``--agent-id`` and ``--run-id`` (the one rule of
:mod:`ripplemem.core.identity`). ``--json`` prints what the REST API answers for the same verb.

Settings come from ``RIPPLEMEM_*`` environment variables (read here, at the edge) plus the
``--store`` option (and ``--llm-timeout`` before the command, for every command). Heavy modules are imported inside the commands so ``ripplemem --help`` is fast.
Other distributions add sub-commands through the ``ripplemem.cli`` entry-point group (a name and a
Typer app): ``ripplemem-bench`` adds ``ripplemem bench``.
Every failure ends the command with a one-line red message and a documented exit code, never a
traceback (:mod:`ripplemem.cli.common`: 2 usage, 3 store, 4 provider, 5 file, 70 internal, 130
interrupted; ``RIPPLEMEM_DEBUG=1`` shows the traceback of an unexpected error).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated

import typer

from ripplemem.cli import asso as asso_commands
from ripplemem.cli.common import (
    console,
    error_console,
    explain,
    friendly,
    open_memory,
    store_settings,
    warm,
)
from ripplemem.cli.interrupts import stop_if_interrupted, watch
from ripplemem.cli.keys import keys_app
from ripplemem.cli.mcp import mcp
from ripplemem.cli.migrate import migrate
from ripplemem.cli.plugins import add_plugins
from ripplemem.cli.serve import serve

app = typer.Typer(
    name="ripplemem",
    help="Long-term memory for LLM agents: ingest conversations, search them, explain recalls.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _print_version(value: bool) -> None:
    if value:
        from ripplemem import __version__

        typer.echo(f"ripplemem {__version__}")
        raise typer.Exit()


@app.callback()
def options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
    llm_timeout: Annotated[
        float | None,
        typer.Option(
            "--llm-timeout", min=0.001, metavar="SECONDS",
            help="Seconds one LLM call may take, for every command (default: "
            "$RIPPLEMEM_LLM_TIMEOUT_S, else 60, or 1800 for an endpoint on this machine).",
        ),
    ] = None,
) -> None:
    """Long-term memory for LLM agents: ingest conversations, search them, explain recalls.

    Options before the command's name hold for every command (ripplemem --llm-timeout 300 answer ...).
    """
    if llm_timeout is not None:
        # the edge: this process's settings read it with the other RIPPLEMEM_* variables
        os.environ["RIPPLEMEM_LLM_TIMEOUT_S"] = repr(llm_timeout)


MetadataOption = Annotated[
    str | None,
    typer.Option(
        "--metadata", help='A JSON object stored with every memory added, e.g. \'{"topic": "pets"}\'.'
    ),
]
FiltersOption = Annotated[
    str | None,
    typer.Option(
        "--filters",
        help='Keep to matching memories (JSON): metadata values, "speaker", "after", "before", '
        'e.g. \'{"topic": ["pets", "work"], "after": "2024-05-01"}\'.',
    ),
]


def _json_object(text: str | None, option: str) -> dict | None:
    """An option's JSON object, or a usage error saying what was wrong."""
    if text is None:
        return None
    from ripplemem.errors import InvalidInputError

    try:
        value = json.loads(text)
    except ValueError as error:
        raise InvalidInputError(f"{option} is not JSON ({error}): give an object like {{\"topic\": \"pets\"}}") from None
    if not isinstance(value, dict):
        raise InvalidInputError(f"{option} must be a JSON object like {{\"topic\": \"pets\"}}, not {text!r}")
    return value


StoreOption = Annotated[
    str | None,  # not a Path: a store URL (postgresql://host/db) would lose its '//'
    typer.Option(
        "--store",
        help="SQLite store file or store URL (postgresql://...) "
        "\\[default: $RIPPLEMEM_STORE or .ripplemem/memory.db]",
    ),
]
NamespaceOption = Annotated[
    str | None, typer.Option("--namespace", "-n", help="Namespace (user id) to use \\[default: default].")
]
UserOption = Annotated[str | None, typer.Option("--user-id", help="A synonym of --namespace.")]
AgentOption = Annotated[
    str | None, typer.Option("--agent-id", help="Narrow the namespace to one agent: <user>/agent:<id>.")
]
RunOption = Annotated[str | None, typer.Option("--run-id", help="Narrow it to one run: .../run:<id>.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the JSON the REST API answers.")]


def _ids(namespace: str | None, user_id: str | None, agent_id: str | None, run_id: str | None) -> dict:
    """The ids a command names its namespace with, checked first (a namespace outside the
    grammar is the caller's mistake, whatever the store)."""
    from ripplemem.core.identity import namespace_of

    namespace_of(namespace, user_id, agent_id, run_id)
    return {"namespace": namespace, "user_id": user_id, "agent_id": agent_id, "run_id": run_id}


@app.command()
@friendly
def ingest(
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="Conversation file.")],
    format: Annotated[
        str | None,
        typer.Option("--format", "-f", help="locomo, longmemeval or jsonl \\[default: detected]"),
    ] = None,
    limit: Annotated[int | None, typer.Option(help="Ingest only the first N conversations.", min=1)] = None,
    split: Annotated[
        bool, typer.Option("--split", help="One namespace per conversation: <namespace>/<conversation id>.")
    ] = False,
    store: StoreOption = None,
    namespace: NamespaceOption = None,
    user_id: UserOption = None,
    agent_id: AgentOption = None,
    run_id: RunOption = None,
    metadata: MetadataOption = None,
) -> None:
    """Add the conversations of FILE to memory."""
    extra = _json_object(metadata, "--metadata")
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from ripplemem.cli.inputs import load_conversations
    from ripplemem.cli.render import for_terminal
    from ripplemem.core.identity import namespace_of, user_of

    user = user_of(namespace, user_id) or "default"

    conversations = load_conversations(file, format, limit)
    out = console()
    units = edges = 0
    seconds = 0.0
    with open_memory(store) as memory, Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=out, transient=True,
    ) as bar:
        warm(memory)
        overall = bar.add_task("conversations", total=len(conversations))
        for conversation in conversations:
            within = f"{user}/{conversation.conversation_id}" if split else user
            target = namespace_of(within, None, agent_id, run_id)
            task = bar.add_task(f"  {conversation.conversation_id}: windows", total=None)

            def advance(done: int, total: int, task=task) -> None:
                stop_if_interrupted()  # inside the add: raising rolls the whole add back
                bar.update(task, completed=done, total=total)

            result = memory.add(conversation, namespace=target, progress=advance, metadata=extra)
            bar.remove_task(task)
            bar.advance(overall)
            units, edges, seconds = units + len(result.units), edges + result.edges, seconds + result.seconds
    where = f"namespaces {user}/<conversation id>" if split else f"namespace {namespace_of(user, None, agent_id, run_id)!r}"
    out.print(
        for_terminal(
            f"ingested {len(conversations)} conversation(s) into {where}: "
            f"{units} units, {edges} edges, {seconds:.1f} s"
        )
    )


@app.command()
@friendly
def search(
    query: Annotated[str, typer.Argument(help="What to recall.")],
    recipe: Annotated[str, typer.Option(help="Recall recipe: ripple, bm25, dense, hybrid, ...")] = "ripple",
    limit: Annotated[int, typer.Option(help="Evidence budget (units returned).", min=1)] = 30,
    question_time: Annotated[
        str | None, typer.Option("--time", help="When the question is asked (ISO 8601).")
    ] = None,
    as_json: JsonOption = False,
    store: StoreOption = None,
    namespace: NamespaceOption = None,
    user_id: UserOption = None,
    agent_id: AgentOption = None,
    run_id: RunOption = None,
    filters: FiltersOption = None,
) -> None:
    """Recall the evidence for QUERY."""
    from ripplemem.cli.render import render_recall

    ids = _ids(namespace, user_id, agent_id, run_id)
    where = _json_object(filters, "--filters")
    with open_memory(store, existing=True) as memory:
        if memory.count(**ids):  # an empty namespace needs no model
            warm(memory)
        if as_json:
            _echo_json(memory.search_json(query, **ids, limit=limit, recipe=recipe, question_time=question_time, filters=where))
            return
        recall = memory.search(query, **ids, limit=limit, recipe=recipe, question_time=question_time, filters=where)
        render_recall(console(), recall)
        _hint_if_empty(memory, recall.trace.namespace)


@app.command()
@friendly
def answer(
    question: Annotated[str, typer.Argument(help="The question to answer from memory.")],
    recipe: Annotated[str | None, typer.Option(help="Recall recipe \\[default: ripple].")] = None,
    question_time: Annotated[
        str | None, typer.Option("--time", help="When the question is asked (ISO 8601).")
    ] = None,
    as_json: JsonOption = False,
    store: StoreOption = None,
    namespace: NamespaceOption = None,
    user_id: UserOption = None,
    agent_id: AgentOption = None,
    run_id: RunOption = None,
) -> None:
    """Answer QUESTION with an LLM (RIPPLEMEM_LLM_BASE_URL, RIPPLEMEM_LLM_MODEL, RIPPLEMEM_LLM_API_KEY)."""
    ids = _ids(namespace, user_id, agent_id, run_id)
    with open_memory(store, existing=True) as memory:
        if memory.count(**ids) and memory.can_answer:  # no model for what is refused at once
            warm(memory)
        result = memory.answer(question, **ids, recipe=recipe, question_time=question_time)
    if as_json:
        _echo_json(result.to_model().model_dump_json())
        return
    from ripplemem.cli.render import for_terminal

    out = console()
    out.print(for_terminal(result.text))
    for number, item in zip(result.citations, result.cited):
        unit = item.unit
        said = f"{unit.session_time:%Y-%m-%d}" if unit.session_time else "date unknown"
        out.print(
            f"  [cyan][{number}][/] {for_terminal(unit.restatement)} [dim]({said}, "
            f"{for_terminal(unit.id)})[/]"
        )
    if result.uncited:
        out.print("[yellow]uncited: the answer names no memory it rests on[/]")
    out.print(
        f"[dim]{len(result.cited)} of {len(result.evidence)} memories cited, "
        f"{result.tokens} LLM tokens, {for_terminal(result.model)}[/]"
    )


@app.command()
@friendly
def show(
    unit_id: Annotated[str, typer.Argument(help="Memory unit id (see `ripplemem list`).")],
    as_json: JsonOption = False,
    store: StoreOption = None,
    namespace: NamespaceOption = None,
    user_id: UserOption = None,
    agent_id: AgentOption = None,
    run_id: RunOption = None,
) -> None:
    """Show one memory unit and its edges."""
    from rich.table import Table

    from ripplemem.cli.render import for_terminal

    ids = _ids(namespace, user_id, agent_id, run_id)
    with open_memory(store, existing=True) as memory:
        unit = memory.get(unit_id, **ids)
        edges = memory.edges(unit_id, **ids)
        others = {u.id: u for u in memory.neighbourhood([unit_id], **ids, hops=1).units}
    if as_json:
        _echo_json(unit.to_model(with_vector=False).model_dump_json())
        return
    out = console()
    data = unit.to_json(with_vector=False)
    for key in ("id", "restatement", "participants", "locations", "time_span", "episode_id",
                "turn_ids", "session_time", "keywords"):
        value = data.get(key)
        shown = ", ".join(value) if isinstance(value, list) else value
        out.print(f"[bold]{key:>13}[/] {for_terminal(shown if shown not in (None, '') else '-')}")
    table = Table(title=f"{len(edges)} edges")
    for column in ("kind", "weight", "unit", "restatement"):
        table.add_column(column)
    for edge in sorted(edges, key=lambda e: (e.kind, -e.weight)):
        other_id = edge.dst if edge.dst != unit_id else edge.src
        other = others.get(other_id)
        # a supersedes edge runs new -> old: seen from the old unit, it was superseded by the other
        kind = "superseded by" if edge.kind == "supersedes" and edge.dst == unit_id else edge.kind
        table.add_row(
            kind, f"{edge.weight:.3f}", for_terminal(other_id),
            for_terminal(other.restatement) if other else "?",
        )
    out.print(table)


@app.command()
@friendly
def trace(
    query: Annotated[str, typer.Argument(help="What to recall.")],
    recipe: Annotated[str, typer.Option(help="Recall recipe.")] = "ripple",
    limit: Annotated[int, typer.Option(help="Evidence budget (units returned).", min=1)] = 30,
    question_time: Annotated[
        str | None, typer.Option("--time", help="When the question is asked (ISO 8601).")
    ] = None,
    store: StoreOption = None,
    namespace: NamespaceOption = None,
    user_id: UserOption = None,
    agent_id: AgentOption = None,
    run_id: RunOption = None,
    filters: FiltersOption = None,
) -> None:
    """Explain a recall: views, anchors, goal, expansion paths and every score term."""
    from ripplemem.cli.render import render_recall
    from ripplemem.cli.trace_view import render_provenance

    ids = _ids(namespace, user_id, agent_id, run_id)
    where = _json_object(filters, "--filters")
    with open_memory(store, existing=True) as memory:
        if memory.count(**ids):  # an empty namespace needs no model
            warm(memory)
        recall = memory.search(query, **ids, limit=limit, recipe=recipe, question_time=question_time, filters=where)
        out = console()
        render_recall(out, recall, show_trace=True)
        render_provenance(out, recall)
        _hint_if_empty(memory, recall.trace.namespace)


@app.command()
@friendly
def person(
    name: Annotated[
        str | None, typer.Argument(help="The person's name; leave it out to show the current one.")
    ] = None,
    forget: Annotated[bool, typer.Option("--forget", help="Forget the name.")] = False,
    store: StoreOption = None,
    namespace: NamespaceOption = None,
    user_id: UserOption = None,
    agent_id: AgentOption = None,
    run_id: RunOption = None,
) -> None:
    """Show or set the person behind a namespace: the speaker of its role-style user messages."""
    ids = _ids(namespace, user_id, agent_id, run_id)
    with open_memory(store, existing=name is None and not forget) as memory:
        if name is not None or forget:
            memory.set_person(None if forget else name, **ids)
        current = memory.person(**ids)
    from ripplemem.cli.render import for_terminal

    console().print(for_terminal(current) if current is not None else 'no person named (role user: "User")')


@app.command(name="list")
@friendly
def list_units(
    limit: Annotated[int, typer.Option(help="How many units.", min=1)] = 50,
    offset: Annotated[int, typer.Option(help="Skip this many units.", min=0)] = 0,
    as_json: JsonOption = False,
    store: StoreOption = None,
    namespace: NamespaceOption = None,
    user_id: UserOption = None,
    agent_id: AgentOption = None,
    run_id: RunOption = None,
) -> None:
    """List memory units of a namespace in the order they were stored (not by when they were
    said: search's --filters "after" / "before" and the viewer's timeline read that)."""
    from rich.table import Table

    from ripplemem.cli.render import for_terminal
    from ripplemem.core.identity import namespace_of
    from ripplemem.records.wire import UnitPageModel

    ids = _ids(namespace, user_id, agent_id, run_id)
    with open_memory(store, existing=True) as memory:
        units = memory.list(**ids, limit=limit, offset=offset)
        total = memory.count(**ids)
        if as_json:
            _echo_json(UnitPageModel.of(units, total, limit, offset).model_dump_json())
            return
        name = namespace_of(**ids)
        table = Table(title=f"namespace {for_terminal(repr(name))}: {total} units")
        for column in ("id", "memory", "session", "turns"):
            table.add_column(column)
        for unit in units:
            table.add_row(*map(for_terminal, (unit.id, unit.restatement, unit.episode_id, ",".join(unit.turn_ids))))
        console().print(table)
        _hint_if_empty(memory, name)


@app.command()
@friendly
def delete(
    unit_id: Annotated[str, typer.Argument(help="Memory unit id.")],
    store: StoreOption = None,
    namespace: NamespaceOption = None,
    user_id: UserOption = None,
    agent_id: AgentOption = None,
    run_id: RunOption = None,
) -> None:
    """Delete one memory unit and its edges."""
    from ripplemem.core.identity import namespace_of

    ids = _ids(namespace, user_id, agent_id, run_id)
    with open_memory(store, existing=True) as memory:
        memory.delete(unit_id, **ids)
    from ripplemem.cli.render import for_terminal

    console().print(for_terminal(f"deleted {unit_id} from namespace {namespace_of(**ids)!r}"))


@app.command(name="export")
@friendly
def export_units(
    file: Annotated[Path, typer.Argument(dir_okay=False, help="JSONL file to write.")],
    store: StoreOption = None,
    namespace: Annotated[
        str | None, typer.Option("--namespace", "-n", help="Only this namespace \\[default: all].")
    ] = None,
) -> None:
    """Export memory units (with vectors) to a JSONL file."""
    from ripplemem.cli.render import for_terminal

    with open_memory(store, existing=True) as memory:  # a store not there: exit 2, no file
        count = memory.export_jsonl(file, namespace=namespace)
    console().print(for_terminal(f"exported {count} records to {file}"))


@app.command(name="import")
@friendly
def import_units(
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="JSONL file from `export`.")],
    store: StoreOption = None,
) -> None:
    """Import memory units from a JSONL export (namespaces are kept)."""
    from ripplemem.cli.absent import NoStore
    from ripplemem.cli.inputs import chat_file_refused
    from ripplemem.core.location import missing_store
    from ripplemem.errors import InvalidInputError

    settings = store_settings(store)
    try:
        if (missing := missing_store(settings.store)) is not None:
            with NoStore(settings, missing) as trial:  # a new store is made only for a file it takes
                trial.import_jsonl(file)
        with open_memory(store) as memory:
            count = memory.import_jsonl(file)
    except InvalidInputError as error:
        raise chat_file_refused(file, error) from error
    from ripplemem.cli.render import for_terminal

    console().print(for_terminal(f"imported {count} records from {file}"))


@app.command()
@friendly
def demo() -> None:
    """Run the offline demo: a multi-session conversation and cross-session recalls."""
    from ripplemem.cli.demo import run_demo

    run_demo(console())


# AssoMem weights and fine-tuning data (ripplemem.cli.asso)
app.command(name="migrate")(migrate)
app.command(name="fit-weights")(friendly(asso_commands.fit_weights))
app.command(name="export-finetune")(friendly(asso_commands.export_finetune))
app.command(name="question-types")(friendly(asso_commands.question_types))
# the service (ripplemem.server): REST + MCP over HTTP, MCP over stdio, its API keys
app.command(name="serve")(serve)
app.command(name="mcp")(mcp)
app.add_typer(keys_app, name="keys")


add_plugins(app)


def _echo_json(text: str) -> None:
    """A wire model's JSON text, indented."""
    typer.echo(json.dumps(json.loads(text), indent=2, ensure_ascii=False))


def _hint_if_empty(memory, namespace: str) -> None:
    """Say so when ``namespace`` holds nothing (a typo?), naming this store's namespaces: the
    command line is the store owner's tool, so it may list them (the service never does)."""
    if memory.count(namespace=namespace):
        return
    from ripplemem.cli.render import for_terminal

    known = memory.namespaces()
    where = f"namespaces in this store: {', '.join(known)}" if known else "the store is empty"
    error_console().print(
        f"[yellow]namespace {for_terminal(repr(namespace))} holds no memory yet[/] ({for_terminal(where)})"
    )


def main() -> None:
    """The console script: any failure a command did not turn into a message (a plug-in's
    command, an error while parsing) still ends as one line and an exit code."""
    watch()
    try:
        app()
    except (SystemExit, typer.Exit):
        raise
    except BaseException as error:  # noqa: BLE001 - a native panic is a BaseException
        try:
            explain(error)
        except typer.Exit as done:
            raise SystemExit(done.exit_code) from None


if __name__ == "__main__":
    main()
