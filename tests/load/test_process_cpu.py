"""The load script's CPU reading: /proc stat lines parsed, groups summed, pid files read."""

from __future__ import annotations

import os
import time
from pathlib import Path

from process_cpu import TICKS_PER_S, group_cpu_s, service_cpu_s, service_groups, stat_fields


def _stat(pid: int, command: str, group: int, utime: int, stime: int, parent: int = 1) -> str:
    rest = ["S", str(parent), str(group), *["0"] * 8, str(utime), str(stime), "0", "0", *["0"] * 8]
    return f"{pid} ({command}) " + " ".join(rest) + "\n"


def test_a_stat_line_with_spaces_and_parentheses_in_its_command_is_read() -> None:
    fields = stat_fields(_stat(42, "uvicorn (worker) 1", 40, 7, 3, parent=39))
    assert (fields[0], fields[1], fields[2], fields[11], fields[12]) == ("S", "39", "40", "7", "3")


def test_cpu_is_summed_by_process_group_and_named_by_pid_file(tmp_path: Path) -> None:
    proc, run = tmp_path / "proc", tmp_path / "run"
    # 12 is a backend in a session of its own (as Postgres starts them), a grandchild of 10.
    table = ((10, 10, 100, 50, 1), (11, 10, 20, 10, 10), (12, 12, 30, 0, 11), (20, 20, 5, 5, 1))
    for pid, group, utime, stime, parent in table:
        (proc / str(pid)).mkdir(parents=True)
        (proc / str(pid) / "stat").write_text(_stat(pid, "postgres: writer", group, utime, stime, parent))
    (proc / "self").mkdir()  # not a pid: skipped
    run.mkdir()
    (run / "postgres.pid").write_text("10\n10\n123\n")
    (run / "web.pid").write_text("20\n20\n456\n")
    (run / "broken.pid").write_text("oops\n")
    assert group_cpu_s(proc) == {10: 180 / TICKS_PER_S, 12: 30 / TICKS_PER_S, 20: 10 / TICKS_PER_S}
    assert service_groups(run) == {"postgres": (10, 10), "web": (20, 20)}
    assert service_cpu_s(run, proc) == {"postgres": 210 / TICKS_PER_S, "web": 10 / TICKS_PER_S}


def test_this_process_is_read_from_the_real_proc() -> None:
    deadline = time.process_time() + 0.05
    while time.process_time() < deadline:
        pass
    assert group_cpu_s()[os.getpgrp()] > 0
