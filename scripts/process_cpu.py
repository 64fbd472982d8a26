"""CPU time used by each service `make up` started, read from ``/proc`` (Linux).

``<var>/run/<name>.pid`` holds a service's pid and process group (``stack_plan.PidRecord``); every
process of that group counts, and every descendant of that pid (Postgres starts each backend in a
session of its own). Each process's CPU includes its ended children's, so a backend that exits
during a measurement still counts. The processes are read with ``stack_process.process_table``.
Used by the load script to report CPU per request by service.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from stack_plan import PidFileError, ProcStat, parse_pid_file
from stack_process import PROC, process_table

TICKS_PER_S = os.sysconf("SC_CLK_TCK")


def tree_cpu_s(table: Mapping[int, ProcStat], root: int, group: int) -> float:
    """CPU seconds of ``root``'s process group and of every descendant of ``root``, each once."""
    children: dict[int, list[int]] = {}
    for pid, process in table.items():
        children.setdefault(process.ppid, []).append(pid)
    counted = {pid for pid, process in table.items() if process.pgid == group}
    seen: set[int] = set()
    stack = [root]
    while stack:
        pid = stack.pop()
        if pid in seen:
            continue
        seen.add(pid)
        if pid in table:
            counted.add(pid)
        stack.extend(children.get(pid, ()))
    return sum(table[pid].cpu_ticks for pid in counted) / TICKS_PER_S


def service_groups(run_dir: Path) -> dict[str, tuple[int, int]]:
    """Each service's pid and process group from its pid file; a file removed or unreadable
    meanwhile (`make down`) is skipped, never changed."""
    groups: dict[str, tuple[int, int]] = {}
    for pid_file in sorted(run_dir.glob("*.pid")):
        try:
            record = parse_pid_file(pid_file.read_text())
        except (OSError, PidFileError):
            continue
        groups[pid_file.stem] = (record.pid, record.pgid)
    return groups


def service_cpu_s(run_dir: Path, proc: Path = PROC) -> dict[str, float]:
    """CPU seconds used so far by each service's live processes (and their ended children)."""
    table = process_table(proc)
    return {name: tree_cpu_s(table, pid, group) for name, (pid, group) in service_groups(run_dir).items()}
