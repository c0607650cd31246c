"""The ``ripplemem`` command on a tiny conversation, through typer's CliRunner (real memory)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from ripplemem.cli.main import app
from ripplemem.records import Edge, MemoryUnit, Recall
from ripplemem.testing import FakeEmbedder
from ripplemem.write.supersede import SUPERSEDES_WEIGHT


def _ok(runner: CliRunner, *args: str):
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result


def _fails(runner: CliRunner, *args: str):
    result = runner.invoke(app, list(args))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    return result


def test_ingest_search_show_trace_delete_export_import(
    runner: CliRunner, chat_file: Path, tmp_path: Path
) -> None:
    store = str(tmp_path / "m.db")
    out = _ok(runner, "ingest", str(chat_file), "--store", store, "-n", "maya").output
    assert "ingested 1 conversation(s)" in out and "units" in out

    recall = json.loads(
        _ok(runner, "search", "Where did Maya adopt her cat?", "--store", store, "-n", "maya",
            "--json").stdout
    )
    found = Recall.from_json(recall).evidence  # the wire form POST /v1/search answers
    assert found and recall["trace"]["namespace"] == "maya"
    assert all(item.unit.vector is None for item in found)
    assert any(turn.startswith("s1_") for item in found for turn in item.unit.turn_ids)
    unit_id = found[0].unit.id

    table = _ok(runner, "search", "Pixel", "--store", store, "-n", "maya", "--recipe", "bm25").output
    assert "Pixel" in table

    shown = _ok(runner, "show", unit_id, "--store", store, "-n", "maya").output
    assert unit_id in shown and "edges" in shown and found[0].unit.restatement[:20] in shown
    as_json = json.loads(_ok(runner, "show", unit_id, "--store", store, "--user-id", "maya", "--json").stdout)
    assert MemoryUnit.from_json(as_json).id == unit_id

    traced = _ok(runner, "trace", "Where did Maya adopt her cat?", "--store", store, "-n", "maya").output
    assert "recipe" in traced and "provenance" in traced

    listed = _ok(runner, "list", "--store", store, "-n", "maya").output
    assert unit_id in listed
    page = json.loads(_ok(runner, "list", "--store", store, "-n", "maya", "--json", "--limit", "2").stdout)
    assert page["limit"] == 2 and len(page["memories"]) == 2 and page["total"] >= 2

    export_file = tmp_path / "export.jsonl"
    exported = _ok(runner, "export", str(export_file), "--store", store).output
    assert "exported" in exported and export_file.exists()

    assert "deleted" in _ok(runner, "delete", unit_id, "--store", store, "-n", "maya").output
    gone = _fails(runner, "show", unit_id, "--store", store, "-n", "maya")
    assert f"no memory '{unit_id}' in namespace 'maya'" in gone.output

    fresh = str(tmp_path / "fresh.db")
    assert "imported" in _ok(runner, "import", str(export_file), "--store", fresh).output
    assert unit_id in _ok(runner, "show", unit_id, "--store", fresh, "-n", "maya").output


def test_show_says_which_way_a_supersedes_edge_runs(runner: CliRunner, tmp_path: Path) -> None:
    from ripplemem import Memory

    store = str(tmp_path / "m.db")
    with Memory.open(store) as memory:
        old = memory.add("I live in Leeds.", user_id="maya", session_time="2024-01-01").units[0].id
        # said before Leeds, so only the edge tells which replaced which (an imported edge:
        # ``update`` refuses such a time)
        new = memory.add("I live in Cardiff now.", user_id="maya", session_time="2023-01-01").units[0].id
        memory.store.change_edges(add=[Edge("maya", new, old, "supersedes", SUPERSEDES_WEIGHT)])
    rows = {
        unit_id: [line for line in _ok(runner, "show", unit_id, "--store", store, "-n", "maya").output.splitlines()
                  if "supersede" in line]
        for unit_id in (old, new)
    }
    assert len(rows[old]) == 1 and "superseded by" in rows[old][0] and new in rows[old][0]
    assert len(rows[new]) == 1 and "superseded by" not in rows[new][0] and old in rows[new][0]


def test_bad_input_exits_2_with_a_helpful_message(runner: CliRunner, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"speaker": "A", "text": "fine"}\n{not json\n', encoding="utf-8")
    result = _fails(runner, "ingest", str(bad), "--store", str(tmp_path / "m.db"))
    assert "line 2" in result.output and "not valid JSON" in result.output

    unknown = tmp_path / "unknown.json"
    unknown.write_text('[{"foo": 1}]', encoding="utf-8")
    assert "--format" in _fails(runner, "ingest", str(unknown), "--store", str(tmp_path / "m.db")).output


def test_errors_from_memory_exit_2(runner: CliRunner, chat_file: Path, tmp_path: Path) -> None:
    store = str(tmp_path / "m.db")
    _ok(runner, "ingest", str(chat_file), "--store", store)
    empty = _ok(runner, "search", "cat", "--store", store, "-n", "nobody")  # empty, not an error
    assert "holds no memory yet" in empty.stderr and "namespaces in this store: default" in empty.stderr
    as_json = json.loads(_ok(runner, "search", "cat", "--store", store, "-n", "nobody", "--json").stdout)
    assert as_json["evidence"] == [] and as_json["trace"]["notes"] == ["the namespace holds no memory yet"]
    listed = _ok(runner, "list", "--store", store, "-n", "nobody")
    assert "0 units" in listed.stdout and "holds no memory yet" in listed.stderr
    assert "no recipe named" in _fails(runner, "search", "cat", "--store", store, "--recipe", "nope").output
    assert "needs an LLM" in _fails(runner, "answer", "Who is Pixel?", "--store", store).output


class CountingEmbedder(FakeEmbedder):
    """The shipped fake, counting what it embeds (registered as an embedder, by name)."""

    texts = 0

    def __init__(self) -> None:
        super().__init__(name="counting-fake")

    def embed(self, texts, *, input_type="document"):
        CountingEmbedder.texts += len(texts)
        return super().embed(texts, input_type=input_type)


def test_answer_without_an_llm_is_refused_before_any_model_runs(
    runner: CliRunner, chat_file: Path, tmp_path: Path
) -> None:
    from ripplemem.providers.factory import register_embedder

    register_embedder("counting-fake", CountingEmbedder, replace=True)
    env = {"RIPPLEMEM_EMBEDDER": "counting-fake"}
    store = str(tmp_path / "m.db")
    assert runner.invoke(app, ["ingest", str(chat_file), "--store", store], env=env).exit_code == 0
    CountingEmbedder.texts = 0
    refused = runner.invoke(app, ["answer", "Who is Pixel?", "--store", store], env=env)
    assert refused.exit_code == 2, refused.output
    said = " ".join(refused.output.split())
    assert "needs an LLM" in said and "RIPPLEMEM_LLM_BASE_URL" in said
    assert CountingEmbedder.texts == 0  # not even the warm-up's


def test_ingest_locomo_with_one_namespace_per_conversation(runner: CliRunner, tmp_path: Path) -> None:
    from .synthetic_locomo import tiny_locomo

    data = tmp_path / "tiny_locomo.json"
    data.write_text(json.dumps([tiny_locomo()]), encoding="utf-8")
    store = str(tmp_path / "m.db")
    out = _ok(runner, "ingest", str(data), "--store", store, "--split", "-n", "bench").output
    assert "bench/<conversation id>" in out
    found = json.loads(
        _ok(runner, "search", "cello teacher", "--store", store, "-n", "bench/conv-tiny", "--json").stdout
    )
    turns = {turn for item in found["evidence"] for turn in item["unit"]["turn_ids"]}
    assert {"D1:1", "D2:1"} <= turns  # dia_ids are the turn ids; the tiny memory fits the budget
    assert "holds no memory yet" in _ok(runner, "search", "cello", "--store", store, "-n", "bench").stderr
    narrowed = _ok(runner, "ingest", str(data), "--store", store, "--split", "--user-id", "bench",
                   "--agent-id", "coach").output
    assert "bench/<conversation id>" in narrowed
    coached = json.loads(_ok(runner, "search", "cello teacher", "--store", store, "-n", "bench/conv-tiny",
                             "--agent-id", "coach", "--json").stdout)
    assert coached["trace"]["namespace"] == "bench/conv-tiny/agent:coach" and coached["evidence"]


def test_console_script_help_lists_commands() -> None:
    completed = subprocess.run(
        [sys.executable, "-c", "from ripplemem.cli.main import main; main()", "--help"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert completed.returncode == 0
    for command in ("ingest", "search", "answer", "show", "trace", "list", "delete", "export",
                    "import", "bench", "demo"):
        assert command in completed.stdout


def test_a_missing_plugin_says_how_to_install_it(runner: CliRunner) -> None:
    """Without ripplemem-bench, `ripplemem bench ...` names the install command."""
    import typer

    from ripplemem.cli.plugins import add_plugins

    bare = typer.Typer(no_args_is_help=True)
    bare.command()(lambda: None)
    add_plugins(bare, group="ripplemem.cli.nothing-installed")
    result = runner.invoke(bare, ["bench", "locomo", "data.json", "--recipes", "ripple"])
    assert result.exit_code == 2
    assert "pip install -e benchmarks" in result.output and "Traceback" not in result.output


def test_answer_with_an_llm_endpoint(runner: CliRunner, chat_file: Path, tmp_path: Path) -> None:
    from ripplemem.testing import Reply, ScriptedOpenAIServer

    store = str(tmp_path / "m.db")
    _ok(runner, "ingest", str(chat_file), "--store", store)  # offline extraction (no LLM in env)
    # every chat call gets the same text: the planner cannot parse it and falls back, the
    # answer step returns it
    with ScriptedOpenAIServer(responder=lambda body: Reply.text("In Porto.")) as server:
        env = {"RIPPLEMEM_LLM_BASE_URL": server.base_url, "RIPPLEMEM_LLM_MODEL": "scripted-model"}
        result = runner.invoke(app, ["answer", "Where did Maya adopt Pixel?", "--store", store], env=env)
        assert result.exit_code == 0, result.output
        assert "In Porto." in result.output and "scripted-model" in result.output
        asked = server.requests[-1]["messages"]
        assert "Where did Maya adopt Pixel?" in json.dumps(asked)


def test_answer_prints_the_cited_memories(runner: CliRunner, chat_file: Path, tmp_path: Path) -> None:
    from ripplemem.testing import Reply, ScriptedOpenAIServer

    store = str(tmp_path / "m.db")
    _ok(runner, "ingest", str(chat_file), "--store", store)

    def responder(body: dict) -> Reply:
        prompt = body["messages"][-1]["content"]
        if "plan the next step" in body["messages"][0]["content"]:
            return Reply.json({"continue": False, "stop_reason": "enough"})
        cited = next(line for line in prompt.splitlines() if "Porto" in line)
        return Reply.json({"answer": "In Porto.", "citations": [int(cited[1 : cited.index("]")])]})

    with ScriptedOpenAIServer(responder=responder) as server:
        env = {"RIPPLEMEM_LLM_BASE_URL": server.base_url, "RIPPLEMEM_LLM_MODEL": "scripted-model"}
        result = runner.invoke(app, ["answer", "Where did Maya adopt Pixel?", "--store", store], env=env)
    with ScriptedOpenAIServer(responder=lambda body: Reply.text("No idea.")) as server:
        env = {"RIPPLEMEM_LLM_BASE_URL": server.base_url, "RIPPLEMEM_LLM_MODEL": "scripted-model"}
        uncited = runner.invoke(app, ["answer", "Where?", "--store", store], env=env)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()  # the answer first; "loading the models" goes to stderr
    assert lines[0] == "In Porto."
    assert lines[1].lstrip().startswith("[") and "Porto" in lines[1]
    assert "1 of " in result.output and "memories cited" in result.output
    assert "uncited" not in result.output
    assert uncited.exit_code == 0 and "No idea." in uncited.output
    assert "uncited: the answer names no memory" in uncited.output


def test_a_namespace_outside_the_grammar_is_refused_on_the_command_line(runner: CliRunner, tmp_path) -> None:
    store = str(tmp_path / "m.db")
    nested = _fails(runner, "list", "--store", store, "-n", "alex/run:r", "--agent-id", "q")
    assert "give namespace 'alex/agent:q/run:r'" in " ".join(nested.output.split())
    empty = _fails(runner, "search", "tea", "--store", store, "--user-id", "alex/run:")
    assert "empty run id" in " ".join(empty.output.split())
    key = _fails(runner, "keys", "create", "--store", store, "-n", "carl/agent:a/agent:b")
    assert "the key's namespace 'carl/agent:a/agent:b' is outside the grammar" in " ".join(key.output.split())
    assert not (tmp_path / "m.db").exists() or "carl" not in _ok(runner, "keys", "list", "--store", store).output


def test_a_refused_import_makes_no_store_and_names_a_member_line_of_a_missing_clue(
    runner: CliRunner, chat_file, tmp_path
) -> None:
    source = str(tmp_path / "a.db")
    _ok(runner, "ingest", str(chat_file), "--store", source, "-n", "ana")
    export = tmp_path / "x.jsonl"
    _ok(runner, "export", str(export), "--store", source)
    lines = export.read_text(encoding="utf-8").splitlines()
    assert any('"type": "member"' in line for line in lines)
    without_clues = tmp_path / "no_clues.jsonl"
    without_clues.write_text("\n".join(line for line in lines if '"type": "clue"' not in line) + "\n", encoding="utf-8")
    first_member = next(n for n, line in enumerate(without_clues.read_text().splitlines(), 1) if '"member"' in line)
    target = tmp_path / "new.db"
    refused = _fails(runner, "import", str(without_clues), "--store", str(target))
    said = " ".join(refused.output.split())
    assert f"line {first_member}: clue " in said and "is neither in the file nor in namespace 'ana'" in said
    assert not target.exists()  # refused: no store is made
    _ok(runner, "import", str(export), "--store", str(target))
    assert target.exists()


def test_a_read_only_command_on_a_missing_store_says_so_once_and_writes_no_file(runner: CliRunner, tmp_path) -> None:
    missing = str(tmp_path / "nope.db")
    listed = _fails(runner, "list", "--store", missing, "-n", "ana")
    assert "no store at" in listed.output and "the store is empty" not in listed.output
    assert "holds no memory yet" not in listed.output
    export = tmp_path / "x.jsonl"
    exported = _fails(runner, "export", str(export), "--store", missing)
    assert "exported" not in exported.output and "no store at" in exported.output
    assert not export.exists() and not (tmp_path / "nope.db").exists()


def test_limits_say_what_the_command_line_can_do(runner: CliRunner, chat_file: Path, tmp_path: Path) -> None:
    """An oversized message or query names what the command line can do, not a Python setting
    it has no option for (QA7 Q7-19)."""
    store = str(tmp_path / "m.db")
    _ok(runner, "ingest", str(chat_file), "--store", store)
    big = tmp_path / "big.jsonl"
    big.write_text(json.dumps({"speaker": "A", "text": "word " * 5000}) + "\n", encoding="utf-8")
    ingested = " ".join(_fails(runner, "ingest", str(big), "--store", store).stderr.split())
    assert ingested.endswith("over the limit of 20,000: split the message into several turns"), ingested
    searched = " ".join(_fails(runner, "search", "tea " * 1500, "--store", store).stderr.split())
    assert searched.endswith("over the limit of 4,000: ask a shorter question"), searched
    assert "Settings" not in ingested + searched
