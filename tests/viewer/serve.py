"""`ripplemem serve` as a separate process on 127.0.0.1 and a random port."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

#: searches still go through a worker process, but one: not the cores + 1 that `auto` starts,
#: each loading the models (the pool itself is tested in tests/server/test_search_pool.py)
WORKERS = ("--search-processes", "1")


class Served:
    def __init__(self, store: Path, *options: str) -> None:
        workers = () if "--search-processes" in options else WORKERS
        command = [sys.executable, "-m", "ripplemem.cli.main", "serve", "--store", str(store),
                   "--host", "127.0.0.1", "--port", "0", "--log-level", "warning", "--no-mcp",
                   *workers, *options]
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True, env=env)
        self.log: list[str] = []
        assert self.process.stdout is not None
        url = None
        deadline = time.monotonic() + 120
        while url is None and time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            self.log.append(line)
            found = re.search(r" on (http://127\.0\.0\.1:\d+)", line)
            url = found.group(1) if found else None
        if url is None:
            self.stop()
            raise RuntimeError("ripplemem serve did not start:\n" + "".join(self.log))
        self.url = url
        stdout = self.process.stdout
        threading.Thread(target=lambda: self.log.extend(stdout), daemon=True).start()
        for _ in range(600):  # the port is announced before the app is ready
            try:
                if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("ripplemem serve never answered /healthz:\n" + "".join(self.log))

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
