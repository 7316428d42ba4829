"""The local server (`python -m infra.local_server`) as the integration tests start it: a subprocess on
free ports, its output in a file (a full pipe would block it), up when `/v1/health` answers, stopped at
the end. One place for what test_local_server, test_races, test_readme and push's tests share."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass(frozen=True)
class Running:
    url: str
    db_url: str


@contextmanager
def local_server(log_dir: Path, *args: str, workers: int = 4, tick: str = "3600",
                 wait_s: float = 90) -> Iterator[Running]:
    """The server with `args` added to its command line; fails the test with its log if it never comes up."""
    port, db_port = free_port(), free_port()
    log = (log_dir / "server.log").open("w")
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "POWERTOOLS_LOG_LEVEL": "WARNING"}
    env.pop("AWS_ENDPOINT_URL_DYNAMODB", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "infra.local_server", "--port", str(port), "--db-port", str(db_port),
         "--workers", str(workers), "--tick", tick, *args],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        try:
            if requests.get(f"{url}/v1/health", timeout=1).ok:
                break
        except requests.RequestException:
            time.sleep(0.1)
    else:
        proc.kill()
        log.close()
        pytest.fail("local server did not start: " + (log_dir / "server.log").read_text())
    try:
        yield Running(url, f"http://127.0.0.1:{db_port}")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


class DevUser:
    """Someone logged in to the running local server by name (the local stage's dev login), with a
    requests session carrying her token; the tests add the calls they need on top."""

    def __init__(self, url: str, name: str) -> None:
        self.url = url
        self.http = requests.Session()
        r = self.http.post(f"{url}/v1/auth/dev", json={"name": name}, timeout=30)
        r.raise_for_status()
        self.token: str = r.json()["token"]
        self.user_id: str = r.json()["user"]["id"]
        self.http.headers["Authorization"] = self.token
