"""CPU time used by each process group `make up` started, read from ``/proc`` (Linux).

``<var>/run/<name>.pid`` holds a service's pid and process group (see ``stack_plan.PidRecord``);
every process of that group counts, and every descendant of that pid (Postgres starts each
backend in a session of its own). Used by the load
script to report CPU per request by service, so a latency figure comes with where its CPU went.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

TICKS_PER_S = os.sysconf("SC_CLK_TCK")


def stat_fields(stat_line: str) -> list[str]:
    """The fields of a ``/proc/<pid>/stat`` line after the command (which may hold spaces and
    parentheses): index 0 is the state, 1 the parent pid, 2 the process group, 11 and 12 utime and
    stime, 13 and 14 those of its children that have ended and been waited for."""
    return stat_line[stat_line.rindex(")") + 2 :].split()


@dataclass(frozen=True)
class ProcessCpu:
    parent: int
    group: int
    cpu_s: float  # user + system, its own and that of its ended children (a backend that exits counts)


def processes(proc: Path = Path("/proc")) -> dict[int, ProcessCpu]:
    """Every live process: its parent, its group and the CPU seconds it has used."""
    found: dict[int, ProcessCpu] = {}
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = stat_fields((entry / "stat").read_text())
        except (OSError, ValueError):
            continue  # the process ended while we looked
        cpu = sum(int(fields[i]) for i in (11, 12, 13, 14)) / TICKS_PER_S
        found[int(entry.name)] = ProcessCpu(parent=int(fields[1]), group=int(fields[2]), cpu_s=cpu)
    return found


def group_cpu_s(proc: Path = Path("/proc")) -> dict[int, float]:
    """CPU seconds (user + system) of every live process, summed by process group."""
    totals: dict[int, float] = {}
    for process in processes(proc).values():
        totals[process.group] = totals.get(process.group, 0.0) + process.cpu_s
    return totals


def tree_cpu_s(table: dict[int, ProcessCpu], root: int, group: int) -> float:
    """CPU seconds of ``root``'s process group and of every descendant of ``root``, each once."""
    children: dict[int, list[int]] = {}
    for pid, process in table.items():
        children.setdefault(process.parent, []).append(pid)
    counted = {pid for pid, process in table.items() if process.group == group}
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
    return sum(table[pid].cpu_s for pid in counted)


def service_groups(run_dir: Path) -> dict[str, tuple[int, int]]:
    """Each service's pid and process group from its pid file (first two lines); unreadable files
    are skipped."""
    groups: dict[str, tuple[int, int]] = {}
    for pid_file in sorted(run_dir.glob("*.pid")):
        try:
            lines = pid_file.read_text().split()
        except OSError:
            continue  # removed while we looked (`make down`)
        if len(lines) >= 2 and lines[0].isdigit() and lines[1].isdigit():
            groups[pid_file.stem] = (int(lines[0]), int(lines[1]))
    return groups


def service_cpu_s(run_dir: Path, proc: Path = Path("/proc")) -> dict[str, float]:
    """CPU seconds used so far by each service's live processes."""
    table = processes(proc)
    return {name: tree_cpu_s(table, pid, group) for name, (pid, group) in service_groups(run_dir).items()}
