"""Duckling in a child process, so a parse can be stopped.

Duckling's parser (Haskell, behind a Rust binding) saturates its rules over every pair of
adjacent time tokens, and keeps every parse tree: the number of trees grows exponentially with
the number of time expressions that can combine ("tonight" eight times in a row: seconds; twelve
times "yesterday": minutes). The native call cannot be interrupted and holds Python's GIL for its
whole run, so in-process it would stall every thread of the process (a server's event loop
included). Here each parse runs in a child (``duckling_worker.py``, started on first use, about
0.1 s) with a deadline: a parse past it kills the child, answers ``None`` (the caller falls back
to its rules) and the next parse starts a new child. While it parses, the calling thread waits on
a pipe without the GIL. Each answer says how much CPU the child spent on it (a killed parse: its
whole deadline), so a request's CPU budget can count it (:func:`ripplemem.deadline.charge`).

The deadline is the child's CPU time where the system reports it (Linux ``/proc``), so what is
grounded does not depend on how busy the machine is: a 5 ms parse that waits a second for a core
is not cut. A parse also stops after :data:`WALL_FACTOR` times its deadline of wall time (at least
:data:`MIN_WALL_S`), whatever its CPU, so a child that is starved or stuck cannot hold a call.
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import select
import subprocess
import sys
import threading
import time
import weakref
from dataclasses import dataclass
from pathlib import Path

from ripplemem.errors import MissingExtraError

__all__ = ["ZONEINFO", "DucklingProcess", "NativeParserError", "Parsed", "cpu_seconds"]

log = logging.getLogger(__name__)

#: the zone files the child loads: UTC alone (the parser is always asked in UTC). The system's
#: whole /usr/share/zoneinfo took ~0.55 s to load; this takes ~1 ms, so a restart is cheap.
ZONEINFO = Path(__file__).with_name("zoneinfo")
_WORKER = Path(__file__).with_name("duckling_worker.py")
#: how long a new child may take to load the parser (not counted in any parse's deadline)
START_TIMEOUT_S = 60.0
#: the wall time a parse may take, as a multiple of its CPU deadline, and at least this
WALL_FACTOR = 20.0
MIN_WALL_S = 5.0
#: how often a parse's CPU is read while the caller waits
_POLL_S = 0.02
_TICK_S = 1.0 / os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 0.01


def cpu_seconds(pid: int) -> float | None:
    """The CPU time (user + system) process ``pid`` has used, or None where the system does not
    say (no ``/proc``) or the process is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rpartition(")")[2].split()  # the command name may hold spaces
    try:
        return (int(fields[11]) + int(fields[12])) * _TICK_S  # utime, stime
    except (IndexError, ValueError):
        return None


class NativeParserError(Exception):
    """The parser failed on a text (a panic of the native code, or the child died)."""


@dataclass(frozen=True, slots=True)
class Parsed:
    """One parse: Duckling's results (None: it ran past its deadline and the child was killed)
    and the CPU seconds the child spent on it (a killed parse: its deadline, the most it ran)."""

    results: list[dict] | None
    cpu_s: float


class DucklingProcess:
    """One child process running Duckling; thread-safe (one parse at a time)."""

    def __init__(self, zoneinfo: str | Path = ZONEINFO) -> None:
        self.zoneinfo = str(zoneinfo)
        self._lock = threading.Lock()
        self._child: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self.restarts = 0  # children killed for running past a deadline
        atexit.register(_close_ref, weakref.ref(self))

    @property
    def pid(self) -> int | None:
        """The running child's process id (None before the first parse or after a kill)."""
        child = self._child
        return child.pid if child is not None and child.poll() is None else None

    def parse(self, text: str, stamp: int, timeout: float, language: str = "en") -> Parsed:
        """Duckling's results for ``text`` at reference ``stamp`` (Unix seconds, UTC) in
        ``language`` (an ISO 639-1 code), None when the parse ran past ``timeout`` seconds of the
        child's CPU (the child is then killed), and its CPU."""
        timeout = max(timeout, 0.0)
        with self._lock:
            child = self._running()
            assert child.stdin is not None
            cpu_before = cpu_seconds(child.pid)
            try:
                request = [text, stamp] if language == "en" else [text, stamp, language]
                child.stdin.write(json.dumps(request).encode("utf-8") + b"\n")
                child.stdin.flush()
            except OSError as error:
                self._stop()
                raise NativeParserError(f"the time parser process is gone: {error}") from error
            try:
                line = self._await_parse(child, timeout, cpu_before)
            except BaseException:  # Ctrl-C while it parses: its answer would pair with the next text
                self._stop()
                raise
            if line is None:
                self._stop()
                self.restarts += 1
                return Parsed(None, timeout)
        status, payload, cpu_s = json.loads(line)
        if status != "ok":
            raise NativeParserError(str(payload))
        return Parsed(payload, cpu_s)

    def close(self) -> None:
        with self._lock:
            self._stop()

    # -- the child ------------------------------------------------------------------------------

    def _running(self) -> subprocess.Popen[bytes]:
        if self._child is not None and self._child.poll() is None:
            return self._child
        self._stop()
        try:
            child = subprocess.Popen(
                [sys.executable, str(_WORKER), self.zoneinfo],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,  # Ctrl-C in a terminal is the parent's alone
            )
        except OSError as error:
            raise NativeParserError(f"cannot start the time parser process: {error}") from error
        self._child = child
        ready = self._read_line(child, time.monotonic() + START_TIMEOUT_S)
        if ready is None or json.loads(ready) != ["ready"]:
            output = self._stderr_tail(child)
            self._stop()
            if "No module named 'duckling'" in output:
                raise MissingExtraError(
                    "duckling is not installed. Install it with: "
                    "pip install pyduckling-native-phihos==0.3.0"
                )
            raise NativeParserError(f"the time parser process did not start: {output}")
        assert child.stderr is not None
        child.stderr.close()  # only start-up failures are read; later output would fill the pipe
        return child

    def _await_parse(
        self, child: subprocess.Popen[bytes], timeout: float, cpu_before: float | None
    ) -> str | None:
        """The child's answer, or None once it has spent ``timeout`` of CPU on the parse (of
        wall time where its CPU cannot be read), or :data:`WALL_FACTOR` times that of wall time."""
        started = time.monotonic()
        if cpu_before is None:
            return self._read_line(child, started + timeout)
        wall_deadline = started + max(WALL_FACTOR * timeout, MIN_WALL_S)
        while True:
            cpu_now = cpu_seconds(child.pid)
            spent = 0.0 if cpu_now is None else cpu_now - cpu_before
            left = min(timeout - spent, wall_deadline - time.monotonic())
            if left <= 0 and b"\n" not in self._buffer:
                return None
            line = self._read_line(child, time.monotonic() + min(max(left, 0.0), _POLL_S))
            if line is not None or child.poll() is not None:
                return line

    def _read_line(self, child: subprocess.Popen[bytes], deadline: float) -> str | None:
        """The child's next line, or None at the deadline or when it exits."""
        assert child.stdout is not None
        fd = child.stdout.fileno()
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            readable, _, _ = select.select([fd], [], [], left)
            if not readable:
                return None
            chunk = os.read(fd, 1 << 16)
            if not chunk:  # the child exited
                return None
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8")

    @staticmethod
    def _stderr_tail(child: subprocess.Popen[bytes]) -> str:
        try:
            child.kill()
            _, err = child.communicate(timeout=5)
        except (OSError, ValueError, subprocess.SubprocessError):
            return "(no output)"
        return (err or b"").decode("utf-8", "replace").strip()[-500:] or "(no output)"

    def _stop(self) -> None:
        child, self._child, self._buffer = self._child, None, b""
        if child is None:
            return
        for stream in (child.stdin, child.stdout, child.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        if child.poll() is None:
            child.kill()
        try:
            child.wait(timeout=5)
        except subprocess.TimeoutExpired:
            log.warning("the time parser process %s did not exit after SIGKILL", child.pid)


def _close_ref(ref: weakref.ReferenceType[DucklingProcess]) -> None:
    process = ref()
    if process is not None:
        process.close()
