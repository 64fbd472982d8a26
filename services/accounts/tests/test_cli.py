"""``python -m asat_accounts``: exit codes, messages, JSON, and nothing secret printed."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Callable

import pytest

from asat_accounts.cli import EXIT_OK, EXIT_REFUSED, EXIT_UNAVAILABLE, main
from asat_accounts.migrate import load_migrations
from asat_accounts.postgres_store import PostgresAccountsStore
from asat_accounts.secret_box import KeyRing, format_key_ring, parse_key_ring

from .support import KEY_1, KEY_2, AccountsDatabase, cheap_hash

UNREACHABLE = "postgresql://nobody@127.0.0.1:1/none"
PASSWORD = "a long enough password for tests"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _run(
    argv: list[str], env: dict[str, str], stdin: io.StringIO | None = None, answers: list[str] | None = None
) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    replies = list(answers or [])
    code = main(argv, env=env, out=out, err=err, stdin=stdin or io.StringIO(""), ask=lambda _prompt: replies.pop(0))
    return code, out.getvalue(), err.getvalue()


# --- without a database -----------------------------------------------------------------------


def test_migrate_without_a_url_says_what_to_set() -> None:
    code, _, err = _run(["migrate"], {})
    assert code == EXIT_UNAVAILABLE
    assert "set ASAT_ACCOUNTS_MIGRATE_URL (or ASAT_AUDIT_MIGRATE_URL)" in err


def test_migrate_without_an_app_role_says_what_to_set() -> None:
    code, _, err = _run(["migrate"], {"ASAT_ACCOUNTS_MIGRATE_URL": UNREACHABLE})
    assert (code, "--app-role" in err) == (EXIT_UNAVAILABLE, True)


def test_migrate_that_cannot_connect_exits_2_with_json() -> None:
    code, out, err = _run(["migrate", "--app-role", "x", "--json"], {"ASAT_ACCOUNTS_MIGRATE_URL": UNREACHABLE})
    assert code == EXIT_UNAVAILABLE
    assert json.loads(out)["ok"] is False
    assert "cannot connect as the owner role" in json.loads(out)["error"] and "cannot connect" in err


def test_hint_without_a_url_exits_2() -> None:
    code, _, err = _run(["first-owner-hint"], {})
    assert code == EXIT_UNAVAILABLE
    assert "set ASAT_DATABASE_URL" in err


def test_create_owner_checks_its_input_before_asking_for_a_password() -> None:
    code, _, err = _run(["create-owner", "--email", "not-an-email", "--practice", "P"], {})
    assert (code, "is not an email address" in err) == (EXIT_REFUSED, True)


def test_generate_key_prints_one_fresh_32_byte_key() -> None:
    code, out, _ = _run(["generate-key"], {})
    assert code == EXIT_OK
    name, _, value = out.strip().partition("=")
    assert name == "ASAT_SECRET_KEY"
    ring = parse_key_ring(value)
    assert [k.key_id for k in ring.keys] == ["k1"]
    code, out, _ = _run(["generate-key", "--key-id", "main", "--json"], {})
    assert parse_key_ring(json.loads(out)["ASAT_SECRET_KEY"]).current.key_id == "main"


def test_rotate_key_puts_a_new_key_first_and_keeps_the_old() -> None:
    env = {"ASAT_SECRET_KEY": format_key_ring(KeyRing((KEY_1,)))}
    code, out, err = _run(["rotate-key"], env)
    assert code == EXIT_OK
    ring = parse_key_ring(out.strip().partition("=")[2])
    assert [k.key_id for k in ring.keys] == ["k2", "k1"]
    assert ring.key("k1") == KEY_1
    assert "reencrypt" in err and "k2:" not in err  # the advice, without the key


def test_rotate_key_without_a_key_names_the_variable() -> None:
    code, _, err = _run(["rotate-key"], {})
    assert code == EXIT_UNAVAILABLE
    assert "ASAT_SECRET_KEY is not set" in err


def test_a_malformed_key_is_refused_without_echoing_it() -> None:
    code, _, err = _run(["rotate-key"], {"ASAT_SECRET_KEY": "k1:c2VjcmV0LWtleS1tYXRlcmlhbA=="})
    assert code == EXIT_UNAVAILABLE
    assert "decodes to 19 bytes" in err and "c2VjcmV0" not in err


def test_generate_key_runs_as_a_module() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "asat_accounts", "generate-key", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ),
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["ok"] is True


# --- against the server -------------------------------------------------------------------------

pg = pytest.mark.postgres


def _env(db: AccountsDatabase) -> dict[str, str]:
    return {"ASAT_ACCOUNTS_MIGRATE_URL": db.owner_url, "ASAT_DATABASE_URL": db.app_url}


@pg
def test_migrate_takes_the_app_role_from_the_app_url(make_database: Callable[[], AccountsDatabase]) -> None:
    db = make_database()
    code, out, _ = _run(["migrate"], _env(db))
    assert code == EXIT_OK
    packaged = load_migrations()
    names = ", ".join(f"{m.version:04d}_{m.name}" for m in packaged)
    assert f"schema app at version {len(packaged)} (applied: {names})" in out and db.app_role in out
    code, out, _ = _run(["migrate", "--json"], _env(db))
    assert json.loads(out) == {"ok": True, "version": len(packaged), "applied": [], "app_role": db.app_role}


@pg
def test_migrate_uses_the_audit_settings_when_its_own_are_unset(make_database: Callable[[], AccountsDatabase]) -> None:
    db = make_database()
    code, out, _ = _run(["migrate"], {"ASAT_AUDIT_MIGRATE_URL": db.owner_url, "ASAT_AUDIT_APP_ROLE": db.app_role})
    assert code == EXIT_OK and "applied: 0001_accounts" in out


@pg
def test_migrate_refusing_exits_1(make_database: Callable[[], AccountsDatabase]) -> None:
    db = make_database()
    code, _, err = _run(["migrate", "--app-role", db.owner_role], _env(db))
    assert code == EXIT_REFUSED
    assert "separate role" in err


@pg
def test_first_owner_flow(fresh_db: AccountsDatabase) -> None:
    env = _env(fresh_db)
    code, out, _ = _run(["first-owner-hint"], env)
    assert code == EXIT_OK
    assert "No one can sign in yet" in out
    assert "python -m asat_accounts create-owner --email" in out
    code, out, _ = _run(["first-owner-hint", "--json"], env)
    assert json.loads(out)["needed"] is True

    argv = ["create-owner", "--email", "Owner@Practice.com.au", "--practice", "Owner & Co", "--json"]
    code, out, err = _run(argv, env, io.StringIO(PASSWORD + "\n"))
    assert code == EXIT_OK, err
    created = json.loads(out)
    assert (created["email"], created["practice"], created["role"]) == ("owner@practice.com.au", "Owner & Co", "owner")
    assert PASSWORD not in out + err

    code, out, err = _run(["first-owner-hint"], env)
    assert (code, out, err) == (EXIT_OK, "", "")
    code, out, _ = _run(["first-owner-hint", "--json"], env)
    assert json.loads(out) == {"ok": True, "needed": False, "command": None}

    code, _, err = _run(argv, env, io.StringIO(PASSWORD + "\n"))
    assert code == EXIT_REFUSED
    assert "a user with email owner@practice.com.au already exists" in err
    with PostgresAccountsStore(fresh_db.app_url) as store:
        candidate = store.find_user_for_sign_in("owner@practice.com.au")
    assert candidate is not None and candidate.password_hash.startswith("$argon2id$v=19$m=65536,t=3,p=4$")


@pg
def test_create_owner_asks_twice_at_a_terminal(fresh_db: AccountsDatabase) -> None:
    argv = ["create-owner", "--email", "t@practice.com.au", "--practice", "Terminal"]
    code, _, err = _run(argv, _env(fresh_db), _Terminal(), [PASSWORD, PASSWORD + "x"])
    assert (code, "the two passwords differ" in err) == (EXIT_REFUSED, True)
    code, out, err = _run(argv, _env(fresh_db), _Terminal(), [PASSWORD, PASSWORD])
    assert code == EXIT_OK, err
    assert "created practice 'Terminal'" in out and PASSWORD not in out


@pg
def test_create_owner_refuses_a_weak_or_missing_password(fresh_db: AccountsDatabase) -> None:
    argv = ["create-owner", "--email", "w@practice.com.au", "--practice", "Weak"]
    code, _, err = _run(argv, _env(fresh_db), io.StringIO("short\n"))
    assert (code, "use at least 12" in err, "short" in err.replace("use at least", "")) == (EXIT_REFUSED, True, False)
    code, _, err = _run(argv, _env(fresh_db), io.StringIO(""))
    assert (code, "no password on standard input" in err) == (EXIT_REFUSED, True)


@pg
def test_the_cli_refuses_an_unsafe_role(accounts_db: AccountsDatabase) -> None:
    env = {"ASAT_DATABASE_URL": accounts_db.owner_url}
    code, _, err = _run(["first-owner-hint"], env)
    assert code == EXIT_UNAVAILABLE
    assert "refusing to serve accounts" in err and "owns app.clients" in err


@pg
def test_reencrypt_reseals_every_practice(fresh_db: AccountsDatabase) -> None:
    with PostgresAccountsStore(fresh_db.app_url, KeyRing((KEY_1,))) as store:
        for n in range(2):
            practice, _ = store.create_practice(f"P{n}", f"p{n}@example.com.au", cheap_hash())
            store.save_secret(practice.id, "provider.openai", f"sk-value-{n}-0123456789")
    env = {**_env(fresh_db), "ASAT_SECRET_KEY": format_key_ring(KeyRing((KEY_2, KEY_1)))}
    code, out, err = _run(["reencrypt", "--json"], env)
    assert code == EXIT_OK, err
    assert json.loads(out) == {"ok": True, "resealed": 2, "practices": 2, "key_id": "k2"}
    code, out, _ = _run(["reencrypt"], env)
    assert "re-sealed 0 secret(s) in 2 practice(s) under key k2; no secret uses k1 now" in out
    with fresh_db.admin() as admin:
        assert admin.execute("SELECT array_agg(DISTINCT key_id) FROM app.secrets").fetchone() == (["k2"],)
