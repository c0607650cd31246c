"""``ripplemem serve`` as a process of its own on 127.0.0.1 and a free port."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

__all__ = ["HOST", "ServerProcess", "process_cpu_s"]

HOST = "127.0.0.1"


@dataclass
class ServerProcess:
    process: subprocess.Popen
    url: str
    log: list[str] = field(default_factory=list)

    @classmethod
    def start(cls, store: str, extra: list[str], *, timeout: float = 180) -> ServerProcess:
        """Start it and wait until ``/healthz`` answers."""
        command = [sys.executable, "-m", "ripplemem.cli.main", "serve", "--store", store,
                   "--host", HOST, "--port", "0", "--log-level", "warning", *extra]
        process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        log: list[str] = []
        deadline = time.monotonic() + timeout
        assert process.stdout is not None
        url = None
        while url is None and time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                break
            log.append(line)
            found = re.search(r" on (http://127\.0\.0\.1:\d+)", line)
            url = found.group(1) if found else None
        if url is None:
            process.kill()
            raise RuntimeError("the server did not start:\n" + "".join(log))
        server = cls(process, url, log)
        threading.Thread(target=lambda: log.extend(process.stdout or ()), daemon=True).start()
        while time.monotonic() < deadline:  # the port is announced before the app is ready
            try:
                if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                    return server
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        process.kill()
        raise RuntimeError("the server never answered /healthz:\n" + "".join(log))

    def cpu_s(self) -> float:
        return process_cpu_s(self.process.pid)

    def stop(self, timeout: float = 300) -> int | None:
        """SIGTERM (the server drains its adds first); SIGKILL after ``timeout``."""
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()


def process_cpu_s(pid: int, *, reaped: bool = False) -> float:
    """User + system CPU seconds of a process and its live children (search workers), from
    Linux's /proc; NaN elsewhere. ``reaped``: also its children that have exited (a time parser
    killed at its deadline), as the process's cutime and cstime count them."""
    try:
        total = _own_cpu_s(pid, reaped=reaped)
    except (OSError, IndexError, ValueError):
        return float("nan")
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if _ppid(int(entry.name)) == pid:
                    total += _own_cpu_s(int(entry.name))
            except (OSError, IndexError, ValueError):
                continue  # gone meanwhile
    return total


def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def _own_cpu_s(pid: int, *, reaped: bool = False) -> float:
    fields = _stat(pid)  # fields[0] is the state: utime, stime are the 12th and 13th after it
    ticks = int(fields[11]) + int(fields[12])
    if reaped:  # cutime, cstime: the children it has waited for
        ticks += int(fields[13]) + int(fields[14])
    return ticks / os.sysconf("SC_CLK_TCK")


def _ppid(pid: int) -> int:
    return int(_stat(pid)[1])
