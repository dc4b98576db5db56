"""CPU seconds spent by the benchmark's parts (Linux /proc): the phones (this
process), gunicorn's master and workers, PostgreSQL, the whole machine."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from bench.server import Server


def cpu_seconds(pids: list[int]) -> dict[int, float]:
    """User and system time of each of these processes so far (Linux)."""
    seconds = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended
        seconds[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return seconds


def server_pids(master: int) -> list[int]:
    """gunicorn's master and workers."""
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return [master, *map(int, children)]


def postgres_pids() -> list[int]:
    """Every PostgreSQL process of the machine (the server's, and other users')."""
    pids = []
    for comm in Path("/proc").glob("[0-9]*/comm"):
        try:
            if comm.read_text() == "postgres\n":
                pids.append(int(comm.parent.name))
        except OSError:
            continue
    return pids


def machine_busy() -> tuple[float, float]:
    """Busy and total CPU seconds of the whole machine so far, every core (Linux)."""
    ticks = [int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = ticks[3] + ticks[4]  # idle, iowait
    return (sum(ticks) - idle) / os.sysconf("SC_CLK_TCK"), sum(ticks) / os.sysconf("SC_CLK_TCK")


@dataclass
class Cpu:
    """CPU seconds spent during the loop."""

    phones: float  # this process
    gunicorn: float  # its master and workers
    postgres: float | None  # every PostgreSQL process; None on SQLite
    machine: float  # every process
    machine_total: float  # what the cores had: wall time × cores


class CpuMeter:
    """CPU seconds spent between start() and stop(): by this process (the
    phones), by gunicorn, by PostgreSQL if it is the database, by the machine."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.postgres = server.database_url.startswith("postgres")

    def read(self) -> dict[str, object]:
        return {"phones": time.process_time(),
                "gunicorn": cpu_seconds(server_pids(self.server.pid)),
                "PostgreSQL": cpu_seconds(postgres_pids()) if self.postgres else {},
                "machine": machine_busy()}

    def start(self) -> None:
        self.started = self.read()

    def stop(self) -> Cpu:
        before, now = self.started, self.read()

        def spent(name: str) -> float:
            return sum(s - before[name].get(pid, 0) for pid, s in now[name].items())

        return Cpu(now["phones"] - before["phones"], spent("gunicorn"),
                   spent("PostgreSQL") if self.postgres else None,
                   now["machine"][0] - before["machine"][0],
                   now["machine"][1] - before["machine"][1])
