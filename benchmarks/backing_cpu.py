"""What PostgreSQL and Redis spend on a benchmark's server, from ``/proc`` (issue 24).

``snapshot(server_pids)`` reads utime + stime of

- the PostgreSQL backends connected to the server's processes (found by the client port each
  backend names in its title, ``postgres: … 127.0.0.1(PORT) …``, matched against the server
  processes' own TCP connections to port 5432);
- PostgreSQL's shared processes (WAL writer, checkpointer, background writer, …): shared with
  anything else using that PostgreSQL at the time, so an upper bound;
- the ``redis-server`` listening on the Redis port (shared the same way).

A backend that appears between two snapshots counts from zero (all its CPU is in between).
Linux only; every figure is ``None`` where it cannot be read.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")
CLIENT_PORT = re.compile(rb"\d+\.\d+\.\d+\.\d+\((\d+)\)|\[[0-9a-f:]+\]\((\d+)\)")
TCP_LISTEN = "0A"


@dataclass(frozen=True, slots=True)
class Backing:
    """CPU seconds so far of each process, by what it is."""

    pg_backends: dict[int, float] = field(default_factory=dict)
    pg_shared: dict[int, float] = field(default_factory=dict)
    redis: dict[int, float] = field(default_factory=dict)


def cpu_of(pid: int) -> float | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / TICK


def family(pids: list[int]) -> set[int]:
    """``pids`` and all their descendants (uvicorn's workers are the supervisor's children)."""
    found: set[int] = set()
    queue = list(pids)
    while queue:
        pid = queue.pop()
        if pid in found:
            continue
        found.add(pid)
        try:
            queue += [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
        except OSError:
            continue
    return found


def socket_inodes(pid: int) -> set[int]:
    inodes: set[int] = set()
    try:
        entries = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return inodes
    for entry in entries:
        try:
            target = os.readlink(f"/proc/{pid}/fd/{entry}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(int(target[8:-1]))
    return inodes


def tcp_table() -> list[tuple[int, int, str, int]]:
    """(local port, remote port, state, inode) of every TCP socket, IPv4 and IPv6."""
    rows: list[tuple[int, int, str, int]] = []
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(name).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            parts = line.split()
            local, remote, state, inode = parts[1], parts[2], parts[3], int(parts[9])
            rows.append(
                (int(local.rsplit(":", 1)[1], 16), int(remote.rsplit(":", 1)[1], 16), state, inode)
            )
    return rows


def processes() -> list[tuple[int, bytes]]:
    """(pid, command line) of every process."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                found.append((int(entry), Path(f"/proc/{entry}/cmdline").read_bytes()))
            except OSError:
                continue
    return found


def snapshot(server_pids: list[int], pg_port: int = 5432, redis_port: int = 6379) -> Backing:
    tcp = tcp_table()
    ours: set[int] = set()
    for pid in family(server_pids):
        ours |= socket_inodes(pid)
    client_ports = {local for local, remote, _, inode in tcp if remote == pg_port and inode in ours}
    redis_inodes = {
        inode for local, _, state, inode in tcp if local == redis_port and state == TCP_LISTEN
    }
    backing = Backing()
    for pid, cmdline in processes():
        if cmdline.startswith(b"postgres:"):
            match = CLIENT_PORT.search(cmdline)
            cpu = cpu_of(pid)
            if cpu is None:
                continue
            if match is None:
                backing.pg_shared[pid] = cpu
            elif int(match.group(1) or match.group(2)) in client_ports:
                backing.pg_backends[pid] = cpu
        elif b"redis-server" in cmdline.split(b"\0", 1)[0] and redis_inodes & socket_inodes(pid):
            cpu = cpu_of(pid)
            if cpu is not None:
                backing.redis[pid] = cpu
    return backing


def spent(before: dict[int, float], after: dict[int, float]) -> float:
    return sum(cpu - before.get(pid, 0.0) for pid, cpu in after.items())


def per_move(before: Backing, after: Backing, moves: int) -> dict[str, float | int | None]:
    """ms per move of each part between two snapshots."""

    def ms(seconds: float, found: dict[int, float]) -> float | None:
        return round(seconds * 1000 / moves, 3) if moves and found else None

    return {
        "pg_backends": len(after.pg_backends),
        "pg_backends_cpu_ms_per_move": ms(
            spent(before.pg_backends, after.pg_backends), after.pg_backends
        ),
        "pg_shared_cpu_ms_per_move": ms(spent(before.pg_shared, after.pg_shared), after.pg_shared),
        "redis_cpu_ms_per_move": ms(spent(before.redis, after.redis), after.redis),
    }
