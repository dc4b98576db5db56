"""gunicorn as deployed (gunicorn.conf.py), started and stopped for a
benchmark on a free loopback port, on a given database."""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bench.http_client import Browser

ROOT = Path(__file__).resolve().parent.parent
GUNICORN_CONF = ROOT / "gunicorn.conf.py"
APP = "scorekeeper:create_app()"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass(frozen=True)
class Server:
    host: str
    port: int
    pid: int
    database_url: str
    access_log: Path  # gunicorn's stdout: a JSON line per request


@contextmanager
def gunicorn(database_url: str, workers: int, folder: Path, worker_class: str | None = None):
    """gunicorn on a free loopback port, answering /healthz; its output goes to
    files in ``folder`` (a pipe nobody reads would block it). The worker class
    is gunicorn.conf.py's unless given."""
    port = free_port()
    environ = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": secrets.token_hex(32),
               "XDG_RUNTIME_DIR": str(folder)}  # for gunicorn's control socket
    access_log, error_log = folder / "gunicorn.out", folder / "gunicorn.err"
    with open(access_log, "wb") as out, open(error_log, "wb") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONF), "--workers", str(workers),
             "--bind", f"127.0.0.1:{port}",
             *(["--worker-class", worker_class] if worker_class else []), APP],
            cwd=ROOT, env=environ, stdout=out, stderr=err)
    try:
        wait_until_healthy("127.0.0.1", port, process, error_log)
        yield Server("127.0.0.1", port, process.pid, database_url, access_log)
    finally:
        stop(process)


def stop(process: subprocess.Popen) -> None:
    """A server stopped as gunicorn likes (SIGTERM), killed if it takes 30 s."""
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def wait_until_healthy(host: str, port: int, process: subprocess.Popen, error_log: Path,
                       seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn stopped:\n{error_log.read_text()[-3000:]}")
        try:
            if Browser(host, port).request("GET", "/healthz")[0].status == 200:
                return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"gunicorn did not answer /healthz in {seconds} s")
        time.sleep(0.1)
