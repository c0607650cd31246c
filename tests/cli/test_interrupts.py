"""Ctrl-C that a library swallows still stops a command, and the interrupt message needs no
import (a Ctrl-C may have cut one short)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap


def test_a_swallowed_ctrl_c_still_stops_before_the_write() -> None:
    """A real SIGINT to a real process whose 'library' eats the KeyboardInterrupt: the command
    still stops at the next checkpoint."""
    script = textwrap.dedent(
        """
        import os, signal
        from ripplemem.cli.interrupts import interrupted, stop_if_interrupted, watch
        watch()
        assert not interrupted()
        try:  # a library's broad except around an import
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(10_000): pass
        except BaseException:
            pass
        assert interrupted()
        try:
            stop_if_interrupted()
        except KeyboardInterrupt:
            print("stopped")
        else:
            print("carried on")
        """
    )
    done = subprocess.run([sys.executable, "-c", script], check=False, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "stopped"


def test_no_signal_no_stop() -> None:
    from ripplemem.cli.interrupts import stop_if_interrupted

    stop_if_interrupted()  # nothing arrived in this process: no raise


def test_interrupt_message_survives_a_half_imported_package() -> None:
    """The failure seen in the wild: Ctrl-C during a package's import leaves a submodule in
    ``sys.modules`` but not on the package, so lazy imports in the error path broke into a
    traceback. The interrupt path now imports nothing."""
    script = textwrap.dedent(
        """
        import sys, typer
        sys.modules.pop("rich.markup", None); sys.modules["rich.markup"] = None  # import fails
        from ripplemem.cli.common import explain
        try:
            explain(KeyboardInterrupt())
        except typer.Exit as done:
            print("exit", done.exit_code)
        """
    )
    env = {k: v for k, v in os.environ.items() if k != "RIPPLEMEM_DEBUG"}
    done = subprocess.run([sys.executable, "-c", script], check=False, capture_output=True, text=True, timeout=60, env=env)
    assert done.stdout.strip() == "exit 130", done.stderr
    assert done.stderr.strip() == "error: interrupted; a write in progress was rolled back"


def test_console_script_installs_the_watch() -> None:
    from ripplemem.cli import main as cli_main
    from ripplemem.cli.interrupts import _on_sigint

    before = signal.getsignal(signal.SIGINT)
    try:
        cli_main.watch()
        assert signal.getsignal(signal.SIGINT) is _on_sigint
    finally:
        signal.signal(signal.SIGINT, before)
