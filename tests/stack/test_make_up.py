"""The must-show of `make up`: on a small index scope, in a throwaway var dir on free ports, the real
``scripts/stack.py up`` brings every service up healthy, a second ``up`` is fast and starts
nothing twice, a research question answers through the web service (and is in the audit log),
and ``down`` leaves no process behind and every port free."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from stack_plan import PidRecord, belonging_to
from stack_process import port_in_use, process_table, read_pid_file

REPO = Path(__file__).resolve().parents[2]
STACK = REPO / "scripts" / "stack.py"
SERVICES = ("verifier", "ingest", "research", "extraction", "web")
QUESTION = "How does an entity apply for an ABN?"

pytestmark = [pytest.mark.slow, pytest.mark.corpus, pytest.mark.timeout(600)]


def free_ports(count: int) -> list[int]:
    sockets = [socket.socket() for _ in range(count)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


@pytest.fixture
def var_dir() -> Iterator[Path]:
    # Not under pytest's tmp_path: that is private to root (0700), and the embedded Postgres runs
    # as an unprivileged user who must reach its data directory.
    path = Path(tempfile.mkdtemp(prefix="asat-stack-test-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def stack_env(var_dir: Path) -> dict[str, str]:
    verifier, ingest, research, extraction, web, pg = free_ports(6)
    env = {k: v for k, v in os.environ.items() if k not in ("ASAT_DATABASE_URL", "ASAT_AUDIT_MIGRATE_URL")}
    env |= {
        "ASAT_VAR_DIR": str(var_dir / "var"),
        "ASAT_VECTOR_CACHE_DIR": str(var_dir / "vectors"),  # not the user's shared cache
        "ASAT_CORPUS_DIR": os.environ.get("ASAT_CORPUS_DIR", str(REPO.parent / "shared" / "corpus")),
        # The parsed corpus is cached by content; sharing the repository's cache keeps this fast.
        "ASAT_CACHE_DIR": os.environ.get("ASAT_CACHE_DIR", str(REPO / "var" / "cache")),
        "ASAT_INDEX_ACTS": "abn1999",
        "ASAT_INDEX_RULINGS": "none",
        "ASAT_EMBEDDER": "hash",
        "ASAT_GATE_MIN_SCORE": "0.0",
        "ASAT_VERIFIER_PORT": str(verifier),
        "ASAT_INGEST_PORT": str(ingest),
        "ASAT_RESEARCH_PORT": str(research),
        "ASAT_WEB_PORT": str(web),
        "ASAT_EXTRACTION_PORT": str(extraction),
        "ASAT_EMBEDDED_PG_PORT": str(pg),
        "ASAT_STACK_HEALTH_TIMEOUT": "240",
    }
    return env


def stack(command: str, env: dict[str, str], timeout: float = 420) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(STACK), command],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as response:
        assert response.status == 200, url
        return json.loads(response.read())


def healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/healthz", timeout=5) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def records(var: Path) -> dict[str, PidRecord]:
    found = {}
    for name in ("postgres", *SERVICES):
        record = read_pid_file(var / "run" / f"{name}.pid")
        if record is not None:
            found[name] = record
    return found


def processes_naming(text: str) -> list[int]:
    """Live processes whose command line mentions ``text`` (the embedded server's data dir)."""
    table = process_table()
    pids = []
    for pid, stat in table.items():
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        if stat.alive and text in cmdline and pid != os.getpid():
            pids.append(pid)
    return pids


def test_make_up_serves_a_query_through_the_web_and_make_down_leaves_nothing(
    stack_env: dict[str, str], var_dir: Path
) -> None:
    var = Path(stack_env["ASAT_VAR_DIR"])
    urls = {name: f"http://127.0.0.1:{stack_env[f'ASAT_{name.upper()}_PORT']}" for name in SERVICES}
    ports = [int(stack_env[f"ASAT_{n.upper()}_PORT"]) for n in SERVICES] + [int(stack_env["ASAT_EMBEDDED_PG_PORT"])]
    web_installed = importlib.util.find_spec("asat_web") is not None
    started: dict[str, PidRecord] = {}
    try:
        first = stack("up", stack_env)
        assert first.returncode == 0, f"up failed:\n{first.stdout}\n{first.stderr}"
        assert "index: not ready" in first.stdout and "built " in first.stdout  # the empty index was built
        started = records(var)
        expected = {"postgres", "verifier", "ingest", "research", "extraction"} | ({"web"} if web_installed else set())
        assert set(started) == expected
        for name in SERVICES if web_installed else SERVICES[:-1]:  # web is last
            assert healthy(urls[name]), name
            assert (var / "log" / f"{name}.log").is_file()
        entry = urls["web"] if web_installed else urls["research"]
        assert f"AsAt is up: {entry}" in first.stdout

        began = time.monotonic()
        second = stack("up", stack_env)
        took = time.monotonic() - began
        assert second.returncode == 0, second.stderr
        assert "building" not in second.stdout
        assert records(var) == started  # nothing restarted, nothing duplicated
        assert second.stdout.count("already running and healthy") == len(expected) - 1
        assert took < 20, f"a second up took {took:.1f}s"

        status = stack("status", stack_env)
        assert status.returncode == 0, status.stdout

        if web_installed:
            form = urllib.parse.urlencode({"question": QUESTION, "period": "income_year", "income_year": "2015"})
            request = urllib.request.Request(urls["web"] + "/research", data=form.encode(), method="POST")
            with urllib.request.urlopen(request, timeout=120) as response:
                assert response.status == 200
                page = response.read().decode()
            assert QUESTION in page
        else:
            body = json.dumps({"question": QUESTION, "income_year": 2015}).encode()
            request = urllib.request.Request(
                urls["research"] + "/v1/research", data=body, headers={"content-type": "application/json"}
            )
            with urllib.request.urlopen(request, timeout=120) as response:
                assert response.status == 200
        audit = get_json(urls["research"] + "/v1/audit?last=5")["entries"]
        asked = [e["record"] for e in audit if e["record"]["question"] == QUESTION]
        assert len(asked) == 1, audit
        assert asked[0]["decision"] == "answer", asked[0]
        assert asked[0]["citations"], asked[0]
    finally:
        started = started or records(var)
        down = stack("down", stack_env, timeout=120)
    assert down.returncode == 0, f"down failed:\n{down.stdout}\n{down.stderr}"
    table = process_table()
    for name, record in started.items():
        assert not belonging_to(record, table), f"{name} left processes behind"
    assert processes_naming(str(var_dir)) == []
    assert records(var) == {}
    deadline = time.monotonic() + 10  # a closed listening socket can linger a moment
    while any(port_in_use("127.0.0.1", p) for p in ports) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [p for p in ports if port_in_use("127.0.0.1", p)]
    if not web_installed:
        pytest.xfail("asat_web is not installed (services/web missing or not in `make install`): queried research")
