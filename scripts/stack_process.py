"""Processes the stack starts and stops: /proc, pid files, signals, health probes (Linux)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from pathlib import Path

from stack_plan import (
    PidFileError,
    PidRecord,
    ProcStat,
    belonging_to,
    format_pid_file,
    is_same_process,
    parse_pid_file,
    parse_proc_stat,
)

PROC = Path("/proc")


def process_table(proc: Path = PROC) -> dict[int, ProcStat]:
    """Every process visible in ``proc`` now (entries that vanish while reading are skipped)."""
    table: dict[int, ProcStat] = {}
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = parse_proc_stat((entry / "stat").read_text())
        except (OSError, ValueError):
            continue
        table[stat.pid] = stat
    return table


def read_pid_file(path: Path) -> PidRecord | None:
    """The record in ``path``, or None when there is none; an unreadable file is removed."""
    try:
        return parse_pid_file(path.read_text())
    except FileNotFoundError:
        return None
    except PidFileError:
        path.unlink(missing_ok=True)
        return None


def write_pid_file(path: Path, record: PidRecord) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(format_pid_file(record))
    temporary.replace(path)


def record_for(pid: int) -> PidRecord | None:
    """A pid record for a running process (None when it is not running)."""
    try:
        stat = parse_proc_stat((PROC / str(pid) / "stat").read_text())
    except (OSError, ValueError):
        return None
    return PidRecord(stat.pid, stat.pgid, stat.start_ticks) if stat.alive else None


def running(record: PidRecord | None) -> bool:
    return record is not None and is_same_process(record, process_table())


def start_process(argv: Sequence[str], env: Mapping[str, str], cwd: Path, log_file: Path) -> PidRecord:
    """Start ``argv`` detached in its own session (so its process group is its own and a
    terminal's Ctrl-C does not reach it), output appended to ``log_file``."""
    log_file.parent.mkdir(parents=True, exist_ok=True)
    with log_file.open("ab") as log:
        log.write(f"\n=== {time.strftime('%Y-%m-%d %H:%M:%S')} starting: {' '.join(argv)}\n".encode())
        log.flush()
        process = subprocess.Popen(
            list(argv),
            cwd=cwd,
            env=dict(env),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    record = record_for(process.pid)
    if record is None:  # ended at once; its log says why
        process.wait()
        return PidRecord(process.pid, process.pid, 0)
    return record


def _signal_all(pids: frozenset[int], pgid: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signum)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signum)


def stop_record(record: PidRecord, timeout_s: float) -> frozenset[int]:
    """SIGTERM everything that belongs to ``record`` (its group and their descendants), wait up
    to ``timeout_s``, then SIGKILL what is left. Returns the pids still alive afterwards (none,
    unless the kernel refused to kill them)."""
    targets = belonging_to(record, process_table())
    if not targets:
        return frozenset()
    _signal_all(targets, record.pgid, signal.SIGTERM)
    left = _wait_gone(targets, timeout_s)
    if left:
        _signal_all(left, record.pgid, signal.SIGKILL)
        left = _wait_gone(left, 5.0)
    return left


def _wait_gone(pids: frozenset[int], timeout_s: float) -> frozenset[int]:
    deadline = time.monotonic() + timeout_s
    while True:
        table = process_table()
        # A pid is gone when it is no longer listed, is a zombie, or now names a newer process.
        left = frozenset(p for p in pids if p in table and table[p].alive)
        if not left or time.monotonic() >= deadline:
            return left
        time.sleep(0.1)


def http_health(url: str, timeout_s: float = 2.0) -> tuple[int | None, bytes]:
    """GET ``url``: its status and body (an error status too); ``(None, b"")`` without an answer."""
    try:
        with urllib.request.urlopen(url, timeout=timeout_s) as response:
            return int(response.status), response.read(64 * 1024)
    except urllib.error.HTTPError as error:
        with contextlib.suppress(OSError):
            return int(error.code), error.read(64 * 1024)
        return int(error.code), b""
    except (urllib.error.URLError, OSError, ValueError):
        return None, b""


def port_in_use(host: str, port: int) -> bool:
    """Something accepts TCP connections on ``host:port``."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.settimeout(0.5)
        return probe.connect_ex((host, port)) == 0


def read_tail(path: Path, limit: int = 16_000) -> str:
    try:
        with path.open("rb") as handle:
            handle.seek(max(0, path.stat().st_size - limit))
            return handle.read().decode("utf-8", "replace")
    except OSError:
        return ""
