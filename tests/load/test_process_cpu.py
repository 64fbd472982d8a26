"""The load script's CPU reading: a service's process group and every descendant of its pid, each
process with its ended children's CPU, named by the pid files `make up` writes."""

from __future__ import annotations

import os
import time
from pathlib import Path

from process_cpu import TICKS_PER_S, service_cpu_s, service_groups, tree_cpu_s
from stack_process import process_table


def _stat(pid: int, command: str, group: int, utime: int, stime: int, parent: int = 1, ended: int = 0) -> str:
    # fields: pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt
    # utime stime cutime cstime ... starttime (field 22)
    rest = ["S", str(parent), str(group), *["0"] * 8, str(utime), str(stime), str(ended), "0", *["0"] * 4, "77", "0"]
    return f"{pid} ({command}) " + " ".join(rest) + "\n"


def test_cpu_is_summed_over_the_group_and_the_descendants_and_named_by_pid_file(tmp_path: Path) -> None:
    proc, run = tmp_path / "proc", tmp_path / "run"
    # 12 is a backend in a session of its own (as Postgres starts them), a grandchild of 10 whose
    # own ended children used 5 ticks; 20 is another service.
    table = ((10, 10, 100, 50, 1, 0), (11, 10, 20, 10, 10, 0), (12, 12, 30, 0, 11, 5), (20, 20, 5, 5, 1, 0))
    for pid, group, utime, stime, parent, ended in table:
        (proc / str(pid)).mkdir(parents=True)
        (proc / str(pid) / "stat").write_text(_stat(pid, "postgres: writer (x)", group, utime, stime, parent, ended))
    (proc / "self").mkdir()  # not a pid: skipped
    run.mkdir()
    (run / "postgres.pid").write_text("10\n10\n123\n")
    (run / "web.pid").write_text("20\n20\n456\n")
    (run / "broken.pid").write_text("oops\n")
    assert service_groups(run) == {"postgres": (10, 10), "web": (20, 20)}
    assert (run / "broken.pid").exists()  # skipped, never removed: measuring changes nothing
    assert tree_cpu_s(process_table(proc), 12, 12) == 35 / TICKS_PER_S
    assert service_cpu_s(run, proc) == {"postgres": 215 / TICKS_PER_S, "web": 10 / TICKS_PER_S}


def test_this_process_is_read_from_the_real_proc() -> None:
    deadline = time.process_time() + 0.05
    while time.process_time() < deadline:
        pass
    assert tree_cpu_s(process_table(), os.getpid(), os.getpgrp()) > 0
