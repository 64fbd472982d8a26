"""``python -m asat_accounts``: migrate schema app, create the first owner, manage ASAT_SECRET_KEY.

Commands (each takes ``--json`` for one JSON object on stdout):

- ``migrate``: create or upgrade schema ``app`` as the owner role and grant the app role;
- ``first-owner-hint``: when no user exists yet, print the command that creates the first owner
  (``make up`` prints it); print nothing when one exists;
- ``create-owner --email E --practice NAME``: a new practice and its owner; the password is read
  from standard input (one line), or asked for twice when standard input is a terminal;
- ``generate-key``: a new ``ASAT_SECRET_KEY`` value (the one command that prints key material);
- ``rotate-key``: ``ASAT_SECRET_KEY`` with a new key first and the current ones after it;
- ``reencrypt``: re-seal every practice's secrets under the first key of ``ASAT_SECRET_KEY``.

Exit codes: 0 done; 1 refused (an input, a conflict, a migration or a secret that does not open:
the message says why); 2 not configured or the database cannot be reached.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TextIO

import psycopg
from psycopg.conninfo import conninfo_to_dict

from asat_accounts.errors import (
    AccountsConflictError,
    AccountsInputError,
    AccountsNotFoundError,
    AccountsStartupError,
    AccountsStoreError,
)
from asat_accounts.fields import display_name, normalise_email
from asat_accounts.migrate import migrate
from asat_accounts.passwords import hash_password, password_problem
from asat_accounts.postgres_store import DATABASE_URL_ENV, PostgresAccountsStore
from asat_accounts.secret_box import (
    KEY_ENV,
    KeyRing,
    SecretDecryptError,
    SecretKeyError,
    format_key_ring,
    key_ring_from_env,
    new_key_entry,
    next_key_id,
    parse_key_ring,
)
from asat_audit.migration_runner import MigrationError

EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_UNAVAILABLE = 2

MIGRATE_URL_ENV = "ASAT_ACCOUNTS_MIGRATE_URL"
APP_ROLE_ENV = "ASAT_ACCOUNTS_APP_ROLE"
# The stack (scripts/stack.py) migrates every schema as one owner role: the audit log's settings
# are used when the accounts' own are not set.
AUDIT_MIGRATE_URL_ENV = "ASAT_AUDIT_MIGRATE_URL"
AUDIT_APP_ROLE_ENV = "ASAT_AUDIT_APP_ROLE"
CREATE_OWNER = 'python -m asat_accounts create-owner --email you@your-practice.com.au --practice "Your practice"'

JSONValue = str | int | bool | None | list["JSONValue"] | dict[str, "JSONValue"]
ReadSecret = Callable[[str], str]


class _Unavailable(Exception):
    """Not configured, or the database cannot be reached: exit 2."""


class _Refused(Exception):
    """The command was understood and refused: exit 1."""


def main(
    argv: Sequence[str] | None = None,
    env: Mapping[str, str] | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
    stdin: TextIO | None = None,
    ask: ReadSecret = getpass.getpass,
) -> int:
    args = _parser().parse_args(argv)
    environ = os.environ if env is None else env
    stdout = sys.stdout if out is None else out
    stderr = sys.stderr if err is None else err
    source = sys.stdin if stdin is None else stdin
    try:
        result = _COMMANDS[args.command](args, environ, source, ask, stderr)
    except (_Unavailable, AccountsStartupError, SecretKeyError) as exc:
        return _fail(args, exc, EXIT_UNAVAILABLE, stdout, stderr)
    except (
        _Refused,
        AccountsInputError,
        AccountsConflictError,
        AccountsNotFoundError,
        AccountsStoreError,
        MigrationError,
        SecretDecryptError,
    ) as exc:
        return _fail(args, exc, EXIT_REFUSED, stdout, stderr)
    text, data = result
    if args.json:
        print(json.dumps({"ok": True, **data}, ensure_ascii=False, sort_keys=True), file=stdout)
    elif text:
        print(text, file=stdout)
    return EXIT_OK


Result = tuple[str, dict[str, JSONValue]]


def _migrate(args: argparse.Namespace, env: Mapping[str, str], _in: TextIO, _ask: ReadSecret, _err: TextIO) -> Result:
    url = args.database_url or env.get(MIGRATE_URL_ENV) or env.get(AUDIT_MIGRATE_URL_ENV, "")
    if not url:
        raise _Unavailable(
            f"no owner-role URL: set {MIGRATE_URL_ENV} (or {AUDIT_MIGRATE_URL_ENV}) or pass --database-url"
        )
    app_role = (
        args.app_role or env.get(APP_ROLE_ENV) or env.get(AUDIT_APP_ROLE_ENV) or _user_of(env.get(DATABASE_URL_ENV, ""))
    )
    if not app_role:
        raise _Unavailable(f"no app role to grant: pass --app-role, or set {APP_ROLE_ENV} or {DATABASE_URL_ENV}")
    try:
        report = migrate(url, app_role)
    except psycopg.OperationalError as exc:
        raise _Unavailable(f"cannot connect as the owner role: {str(exc).strip()}") from exc
    except psycopg.Error as exc:
        raise _Refused(str(exc).strip()) from exc
    applied = [f"{m.version:04d}_{m.name}" for m in report.applied]
    text = (
        f"schema app at version {report.version} (applied: {', '.join(applied) or 'nothing new'}); "
        f"{app_role} granted, under row-level security"
    )
    applied_json: list[JSONValue] = list(applied)
    return text, {"version": report.version, "applied": applied_json, "app_role": app_role}


def _first_owner_hint(
    args: argparse.Namespace, env: Mapping[str, str], _in: TextIO, _ask: ReadSecret, _err: TextIO
) -> Result:
    with PostgresAccountsStore(_app_url(args, env)) as store:
        users = store.user_count()
    if users:
        return "", {"needed": False, "command": None}
    text = (
        "No one can sign in yet. Create the first owner of your practice (it asks for a password; "
        f"run it with {DATABASE_URL_ENV} set as for the services):\n  {CREATE_OWNER}"
    )
    return text, {"needed": True, "command": CREATE_OWNER}


def _create_owner(
    args: argparse.Namespace, env: Mapping[str, str], source: TextIO, ask: ReadSecret, _err: TextIO
) -> Result:
    email = normalise_email(args.email)
    practice_name = display_name(args.practice, "practice")
    url = _app_url(args, env)
    password = _read_password(source, ask, email)
    problem = password_problem(password, email)
    if problem is not None:
        raise _Refused(problem)
    with PostgresAccountsStore(url) as store:
        practice, owner = store.create_practice(practice_name, email, hash_password(password))
    text = (
        f"created practice {practice.name!r} (id {practice.id}) and its owner {owner.user.email} "
        f"(user id {owner.user.id}): sign in with that email and the password you gave"
    )
    data: dict[str, JSONValue] = {
        "practice_id": practice.id,
        "practice": practice.name,
        "user_id": owner.user.id,
        "email": owner.user.email,
        "role": owner.role.value,
    }
    return text, data


def _generate_key(
    args: argparse.Namespace, _env: Mapping[str, str], _in: TextIO, _ask: ReadSecret, _err: TextIO
) -> Result:
    value = new_key_entry(args.key_id)
    return f"{KEY_ENV}={value}", {KEY_ENV: value}


def _rotate_key(args: argparse.Namespace, env: Mapping[str, str], _in: TextIO, _ask: ReadSecret, err: TextIO) -> Result:
    ring = key_ring_from_env(env)
    key_id = args.key_id or next_key_id(ring)
    rotated = parse_key_ring(f"{new_key_entry(key_id)},{format_key_ring(ring)}")
    value = format_key_ring(rotated)
    if not args.json:
        print(
            f"{KEY_ENV}: new key {key_id} first, then {', '.join(k.key_id for k in ring.keys)}. Set it for every "
            "service, restart them, run `python -m asat_accounts reencrypt`, then remove the old keys.",
            file=err,
        )
    return f"{KEY_ENV}={value}", {KEY_ENV: value, "key_id": key_id}


def _reencrypt(args: argparse.Namespace, env: Mapping[str, str], _in: TextIO, _ask: ReadSecret, _err: TextIO) -> Result:
    ring: KeyRing = key_ring_from_env(env)
    with PostgresAccountsStore(_app_url(args, env), ring) as store:
        practices = store.practice_ids()
        resealed = sum(store.reencrypt_secrets(p) for p in practices)
    older = [k.key_id for k in ring.keys[1:]]
    text = f"re-sealed {resealed} secret(s) in {len(practices)} practice(s) under key {ring.current.key_id}; " + (
        f"no secret uses {', '.join(older)} now: remove it from {KEY_ENV}" if older else "no older key is listed"
    )
    return text, {"resealed": resealed, "practices": len(practices), "key_id": ring.current.key_id}


_COMMANDS: dict[str, Callable[[argparse.Namespace, Mapping[str, str], TextIO, ReadSecret, TextIO], Result]] = {
    "migrate": _migrate,
    "first-owner-hint": _first_owner_hint,
    "create-owner": _create_owner,
    "generate-key": _generate_key,
    "rotate-key": _rotate_key,
    "reencrypt": _reencrypt,
}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m asat_accounts", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = parser.add_subparsers(dest="command", required=True)
    app_url_help = f"the app role's URL; default: ${DATABASE_URL_ENV}"

    migrate_cmd = commands.add_parser("migrate", help="create or upgrade schema app (as the owner role)")
    migrate_cmd.add_argument(
        "--database-url", help=f"the owner role's URL; default: ${MIGRATE_URL_ENV}, else ${AUDIT_MIGRATE_URL_ENV}"
    )
    migrate_cmd.add_argument(
        "--app-role",
        help=f"role to grant; default: ${APP_ROLE_ENV}, else ${AUDIT_APP_ROLE_ENV}, else the user of ${DATABASE_URL_ENV}",
    )
    hint = commands.add_parser("first-owner-hint", help="print how to create the first owner, if there is none")
    hint.add_argument("--database-url", help=app_url_help)
    owner = commands.add_parser("create-owner", help="create a practice and its owner (password from stdin)")
    owner.add_argument("--email", required=True, help="the owner's email (their sign-in name)")
    owner.add_argument("--practice", required=True, help="the practice's name")
    owner.add_argument("--database-url", help=app_url_help)
    generate = commands.add_parser("generate-key", help=f"print a new {KEY_ENV} value")
    generate.add_argument("--key-id", default="k1", help="the new key's id (default k1)")
    rotate = commands.add_parser("rotate-key", help=f"print {KEY_ENV} with a new key first")
    rotate.add_argument("--key-id", help="the new key's id (default: k<n+1>)")
    reencrypt = commands.add_parser("reencrypt", help=f"re-seal every secret under the first key of {KEY_ENV}")
    reencrypt.add_argument("--database-url", help=app_url_help)
    for sub in (migrate_cmd, hint, owner, generate, rotate, reencrypt):
        sub.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def _app_url(args: argparse.Namespace, env: Mapping[str, str]) -> str:
    url = args.database_url or env.get(DATABASE_URL_ENV, "")
    if not url:
        raise _Unavailable(
            f"no database URL: set {DATABASE_URL_ENV} to the app role's (e.g. postgresql://asat_app@127.0.0.1:5432/asat)"
        )
    return str(url)


def _read_password(source: TextIO, ask: ReadSecret, email: str) -> str:
    if source.isatty():
        first = ask(f"Password for {email}: ")
        if ask("The same password again: ") != first:
            raise _Refused("the two passwords differ: run the command again")
        return first
    line = source.readline()
    if not line:
        raise _Refused("no password on standard input: pipe one line, or run the command in a terminal")
    return line.rstrip("\r\n")


def _user_of(url: str) -> str:
    if not url:
        return ""
    try:
        return str(conninfo_to_dict(url).get("user") or "")
    except psycopg.ProgrammingError:
        return ""


def _fail(args: argparse.Namespace, exc: Exception, code: int, out: TextIO, err: TextIO) -> int:
    message = str(exc).strip() or type(exc).__name__
    if getattr(args, "json", False):
        print(json.dumps({"ok": False, "error": message}, ensure_ascii=False), file=out)
    print(f"accounts {args.command}: {message}", file=err)
    return code
