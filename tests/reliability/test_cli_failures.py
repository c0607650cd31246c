"""The CLI never shows a traceback: bad inputs, bad stores and bad files end with one red line
and a documented exit code (2 usage, 3 store, 5 file). Most cases run through Typer's runner;
the ones that need the console script itself (undecodable argv bytes, the catch-all of
``main``) run the real ``ripplemem`` command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ripplemem.cli.common import EXIT_FILE, EXIT_STORE, EXIT_USAGE
from ripplemem.cli.main import app

CLEAN_ENV = {"RIPPLEMEM_STORE": None, "RIPPLEMEM_LLM_BASE_URL": None, "RIPPLEMEM_EMBEDDER": None,
             "RIPPLEMEM_DEBUG": None, "OMP_NUM_THREADS": "1"}
LINES = [
    {"session_id": "s1", "time": "2024-03-02T18:30", "speaker": "Maya",
     "text": "I adopted a grey cat named Pixel from the shelter in Porto."},
    {"session_id": "s1", "speaker": "Leo", "text": "That is lovely! How old is Pixel?"},
]


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("cli")
    chat = folder / "chat.jsonl"
    chat.write_text("\n".join(json.dumps(line) for line in LINES) + "\n")
    store = folder / "memory.db"
    runner = CliRunner(env=CLEAN_ENV)
    result = runner.invoke(app, ["ingest", str(chat), "--store", str(store), "-n", "maya"])
    assert result.exit_code == 0, result.output
    truncated = folder / "truncated.db"
    truncated.write_bytes(store.read_bytes()[: store.stat().st_size // 3])
    made = {
        "chat": chat, "store": store, "truncated": truncated, "folder": folder,
        "junk": folder / "junk.db", "garbage": folder / "garbage.json", "empty": folder / "empty.jsonl",
        "far": folder / "far.jsonl", "nul": folder / "nul.jsonl", "wrong": folder / "wrong.jsonl",
        "badexport": folder / "bad-export.jsonl",
    }
    made["junk"].write_text("not a database\n" * 20)
    made["garbage"].write_bytes(os.urandom(300))
    made["empty"].write_text("")
    made["far"].write_text(json.dumps({**LINES[0], "time": "9999-12-31T12:00"}) + "\n")
    made["nul"].write_text(json.dumps({**LINES[0], "text": "next friday\x00 at 5pm"}) + "\n")
    made["wrong"].write_text(json.dumps({"session_id": 5, "speaker": ["a"], "text": {"x": 1}}) + "\n")
    made["badexport"].write_text('{"type": "meta", "format": "ripplemem.jsonl/2"}\n{"type": "unit"}\n')
    return made


CASES = [  # (arguments with {placeholders}, expected exit code)
    # a store that is not there (a mistyped path): a read is refused, no store is made
    (["search", "cat", "--store", "{folder}/missing/dir/m.db"], EXIT_USAGE),
    (["search", "cat", "--store", "{folder}"], EXIT_STORE),
    (["search", "cat", "--store", "{junk}"], EXIT_STORE),
    (["search", "cat", "--store", "{truncated}", "-n", "maya"], EXIT_STORE),
    (["list", "--store", "{truncated}", "-n", "maya"], EXIT_STORE),
    (["search", "x" * 5000, "--store", "{store}", "-n", "maya"], EXIT_USAGE),
    (["search", "cat", "--store", "{store}", "-n", "maya", "--time", "9999-12-31"], EXIT_USAGE),
    (["search", "cat", "--store", "{store}", "-n", "maya", "--time", "yesterday-ish"], EXIT_USAGE),
    (["search", "cat", "--store", "{store}", "-n", "maya", "--limit", "0"], EXIT_USAGE),
    (["search", "cat", "--store", "{store}", "-n", "maya", "--limit", "many"], EXIT_USAGE),
    (["search", "cat", "--store", "{store}", "-n", "maya", "--recipe", "nope"], EXIT_USAGE),
    (["search", "cat", "--store", "{store}", "-n", "nobody"], 0),
    (["trace", "cat", "--store", "{store}", "-n", "nobody"], 0),
    (["show", "no-such-id", "--store", "{store}", "-n", "maya"], EXIT_USAGE),
    (["delete", "no-such-id", "--store", "{store}", "-n", "maya"], EXIT_USAGE),
    (["list", "--store", "{store}", "-n", "nobody"], 0),
    (["search", "cat", "--store", "{store}", "-n", "maya", "--agent-id", "a/b"], EXIT_USAGE),
    (["search", "cat", "--store", "{store}", "-n", "maya", "--user-id", "leo"], EXIT_USAGE),
    (["answer", "Who is Pixel?", "--store", "{store}", "-n", "maya"], EXIT_USAGE),
    (["ingest", "{garbage}", "--store", "{store}"], EXIT_USAGE),
    (["ingest", "{empty}", "--store", "{store}"], EXIT_USAGE),
    (["ingest", "{far}", "--store", "{store}"], EXIT_USAGE),
    (["ingest", "{nul}", "--store", "{store}"], EXIT_USAGE),
    (["ingest", "{wrong}", "--store", "{store}"], EXIT_USAGE),
    (["ingest", "{chat}", "--store", "{store}", "--format", "nope"], EXIT_USAGE),
    (["ingest", "{folder}/nothing.json", "--store", "{store}"], EXIT_USAGE),
    (["import", "{badexport}", "--store", "{store}"], EXIT_USAGE),
    (["import", "{garbage}", "--store", "{store}"], EXIT_USAGE),
    (["export", "{folder}/no/such/dir/out.jsonl", "--store", "{store}"], EXIT_FILE),
    (["export", "{folder}", "--store", "{store}"], EXIT_USAGE),
    (["keys", "revoke", "key_nope", "--store", "{store}"], EXIT_USAGE),
    (["serve", "--store", "{store}", "--port", "-5"], EXIT_USAGE),
    (["nonsense-command"], EXIT_USAGE),
]


@pytest.mark.parametrize(("args", "code"), CASES, ids=[" ".join(a)[:60] for a, _ in CASES])
def test_bad_inputs_end_in_one_line_and_a_documented_code(files, args, code):
    argv = [a.format(**{k: str(v) for k, v in files.items()}) for a in args]
    result = CliRunner(env=CLEAN_ENV).invoke(app, argv)
    assert result.exit_code == code, (result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output


def _real(*args: str | bytes, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    script = Path(sys.executable).with_name("ripplemem")
    merged = {k: v for k, v in os.environ.items() if k not in CLEAN_ENV}
    return subprocess.run([str(script), *args], capture_output=True, env=merged | (env or {}), timeout=300, check=False)


def test_the_real_command_refuses_undecodable_bytes_and_bad_settings_in_one_line(files):
    store = str(files["store"])
    runs = {
        "argv bytes": (_real(b"search", b"caf\xff", b"--store", store.encode(), b"-n", b"maya"), EXIT_USAGE),
        "namespace bytes": (_real("list", "--store", store, "-n", b"ma\xffya"), EXIT_USAGE),
        "bad embedder": (_real("search", "cat", "--store", store, env={"RIPPLEMEM_EMBEDDER": "nope"}), EXIT_USAGE),
        "empty store": (_real("search", "cat", env={"RIPPLEMEM_STORE": " "}), EXIT_USAGE),
    }
    for name, (run, code) in runs.items():
        err = run.stderr.decode(errors="replace")
        assert run.returncode == code, (name, err[-1500:])
        assert "Traceback" not in err and err.count("\n") <= 4, (name, err)


@pytest.mark.slow
def test_ctrl_c_during_ingest_exits_130_and_stores_nothing_half(tmp_path: Path) -> None:
    """SIGINT to the command's process group, as a terminal's Ctrl-C sends it, at moments spread
    over model loading, extraction and embedding: exit 130, one line, and the store holds a
    whole conversation or none of it (the time parser's process is in a session of its own, so
    its native runtime cannot swallow the signal)."""
    import signal
    import sqlite3
    import time

    lines = [
        {"session_id": f"s{n // 40}", "time": "2024-03-02T18:30", "speaker": ("Maya", "Leo")[n % 2],
         "text": f"On day {n} I walked to the bakery near the harbour and bought {n} rolls yesterday."}
        for n in range(2000)
    ]
    chat = tmp_path / "long.jsonl"
    chat.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    script = Path(sys.executable).with_name("ripplemem")
    merged = {k: v for k, v in os.environ.items() if k not in CLEAN_ENV}
    for wait in (1.0, 4.0, 8.0):
        store = tmp_path / f"store-{wait}.db"
        child = subprocess.Popen(
            [str(script), "ingest", str(chat), "--store", str(store)], env=merged,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        )
        time.sleep(wait)
        os.killpg(child.pid, signal.SIGINT)
        _, err = child.communicate(timeout=120)
        text = err.decode(errors="replace")
        assert child.returncode == 130, (wait, child.returncode, text[-1500:])
        assert "interrupted" in text and "Traceback" not in text, text
        if store.exists():
            with sqlite3.connect(store) as db:
                (units,) = db.execute("SELECT count(*) FROM unit").fetchone()
            assert units == 0, (wait, units)  # one add: all of it or nothing


def test_an_error_that_follows_ctrl_c_ends_as_the_interrupt(tmp_path: Path) -> None:
    """A Ctrl-C that lands inside a native module's import comes back as an ImportError (pybind
    turns the KeyboardInterrupt into one; the embedder then reports its runtime missing). The
    console script's handler remembered the signal, so the error ends as the interrupt: exit 130."""
    program = (
        "import os, signal\n"
        "from ripplemem.cli.interrupts import watch\n"
        "from ripplemem.cli.common import explain\n"
        "watch()\n"
        "try:\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "except KeyboardInterrupt:\n"
        "    error = ImportError('initialization failed')\n"
        "try:\n"
        "    explain(error)\n"
        "except SystemExit:\n"
        "    raise\n"
        "except Exception as done:\n"  # typer.Exit, as the console script's runner ends it
        "    raise SystemExit(done.exit_code)\n"
    )
    merged = {k: v for k, v in os.environ.items() if k not in CLEAN_ENV}
    done = subprocess.run(
        [sys.executable, "-c", program], check=False, env=merged, capture_output=True, text=True, timeout=60)
    assert done.returncode == 130, (done.returncode, done.stderr[-800:])
    assert "interrupted" in done.stderr and "Traceback" not in done.stderr, done.stderr
