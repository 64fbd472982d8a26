"""CPU time used by each process group `make up` started, read from ``/proc`` (Linux).

``<var>/run/<name>.pid`` holds a service's pid and process group (see ``stack_plan.PidRecord``);
every process of that group counts (Postgres's backends, a server's workers). Used by the load
script to report CPU per request by service, so a latency figure comes with where its CPU went.
"""

from __future__ import annotations

import os
from pathlib import Path

TICKS_PER_S = os.sysconf("SC_CLK_TCK")


def stat_fields(stat_line: str) -> list[str]:
    """The fields of a ``/proc/<pid>/stat`` line after the command (which may hold spaces and
    parentheses): index 0 is the state, 2 the process group, 11 and 12 utime and stime."""
    return stat_line[stat_line.rindex(")") + 2 :].split()


def group_cpu_s(proc: Path = Path("/proc")) -> dict[int, float]:
    """CPU seconds (user + system) of every live process, summed by process group."""
    totals: dict[int, float] = {}
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = stat_fields((entry / "stat").read_text())
        except (OSError, ValueError):
            continue  # the process ended while we looked
        group = int(fields[2])
        totals[group] = totals.get(group, 0.0) + (int(fields[11]) + int(fields[12])) / TICKS_PER_S
    return totals


def service_groups(run_dir: Path) -> dict[str, int]:
    """Each service's process group from its pid file (second line); unreadable files are skipped."""
    groups: dict[str, int] = {}
    for pid_file in sorted(run_dir.glob("*.pid")):
        lines = pid_file.read_text().split()
        if len(lines) >= 2 and lines[1].isdigit():
            groups[pid_file.stem] = int(lines[1])
    return groups


def service_cpu_s(run_dir: Path, proc: Path = Path("/proc")) -> dict[str, float]:
    """CPU seconds used so far by each service's live processes."""
    by_group = group_cpu_s(proc)
    return {name: by_group.get(group, 0.0) for name, group in service_groups(run_dir).items()}
