"""``python -m asat_audit``: exit codes, messages, JSON."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from typing import Any

import pytest

from asat_audit.cli import EXIT_BROKEN, EXIT_OK, EXIT_UNAVAILABLE, main
from asat_audit.postgres_store import PostgresAuditStore

UNREACHABLE = "postgresql://nobody@127.0.0.1:1/none"


def _run(argv: list[str], env: dict[str, str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, env=env, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_verify_without_a_url_says_what_to_set() -> None:
    code, _, err = _run(["verify"], {})
    assert code == EXIT_UNAVAILABLE
    assert "set ASAT_DATABASE_URL" in err


def test_verify_that_cannot_connect_exits_2_with_the_reason() -> None:
    code, out, err = _run(["verify", "--json"], {"ASAT_DATABASE_URL": UNREACHABLE})
    assert code == EXIT_UNAVAILABLE
    assert json.loads(out)["ok"] is False
    assert "cannot connect" in json.loads(out)["error"]
    assert "cannot connect" in err


def test_migrate_without_an_app_role_says_what_to_set() -> None:
    code, _, err = _run(["migrate"], {"ASAT_AUDIT_MIGRATE_URL": UNREACHABLE})
    assert code == EXIT_UNAVAILABLE
    assert "--app-role" in err


def test_migrate_that_cannot_connect_exits_2() -> None:
    code, _, err = _run(["migrate", "--app-role", "x"], {"ASAT_AUDIT_MIGRATE_URL": UNREACHABLE})
    assert code == EXIT_UNAVAILABLE
    assert "cannot connect as the owner role" in err


@pytest.mark.postgres
def test_migrate_takes_the_app_role_from_the_app_url(make_database: Any) -> None:
    db = make_database()
    env = {"ASAT_AUDIT_MIGRATE_URL": db.owner_url, "ASAT_DATABASE_URL": db.app_url}
    code, out, _ = _run(["migrate"], env)
    assert code == EXIT_OK
    assert "applied: 0001_audit_log" in out
    assert db.app_role in out
    code, out, _ = _run(["migrate"], env)
    assert (code, "nothing new" in out) == (EXIT_OK, True)


@pytest.mark.postgres
def test_migrate_refusing_exits_1(make_database: Any) -> None:
    db = make_database()
    code, _, err = _run(["migrate", "--app-role", db.owner_role], {"ASAT_AUDIT_MIGRATE_URL": db.owner_url})
    assert code == EXIT_BROKEN
    assert "separate role" in err


@pytest.mark.postgres
def test_show_last_n_as_text_and_json(clean_audit_log: Any, make_record: Any) -> None:
    with PostgresAuditStore(clean_audit_log.app_url) as store:
        entries = [store.append(make_record(n)) for n in range(4)]
    env = {"ASAT_DATABASE_URL": clean_audit_log.app_url}
    code, out, _ = _run(["show", "--last", "2", "--json"], env)
    assert code == EXIT_OK
    shown = json.loads(out)
    assert [row["id"] for row in shown] == [3, 4]
    assert shown[1]["hash"] == entries[3].hash
    assert shown[1]["question"] == entries[3].record.question
    code, out, _ = _run(["show", "--last", "2"], env)
    assert code == EXIT_OK
    assert out.startswith("#3 ") and "\n#4 " in out and "request=req-00003" in out


@pytest.mark.postgres
def test_verify_runs_as_a_module(clean_audit_log: Any, make_record: Any) -> None:
    with PostgresAuditStore(clean_audit_log.app_url) as store:
        last = [store.append(make_record(n)) for n in range(2)][-1]
    env = {**os.environ, "ASAT_DATABASE_URL": clean_audit_log.app_url}
    done = subprocess.run(
        [sys.executable, "-m", "asat_audit", "verify"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == EXIT_OK, done.stderr
    assert f"audit chain valid: 2 rows, last id 2, last hash {last.hash}" in done.stdout
