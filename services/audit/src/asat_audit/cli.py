"""``python -m asat_audit``: verify the chain, show the last rows, migrate the schema.

Exit codes: 0 done (chain valid); 1 chain broken, or migration refused; 2 cannot connect or
not configured (the message says what to set).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Mapping, Sequence
from typing import TextIO

import psycopg
from psycopg.conninfo import conninfo_to_dict

from asat_audit.canonical import JSONValue, record_document
from asat_audit.chain import ChainReport
from asat_audit.migration_runner import MigrationError, migrate_database
from asat_audit.postgres_store import PostgresAuditLog
from asat_audit.record import AuditEntry
from asat_audit.store import AuditReadError, AuditStartupError

EXIT_OK = 0
EXIT_BROKEN = 1
EXIT_UNAVAILABLE = 2

DATABASE_URL_ENV = "ASAT_DATABASE_URL"
MIGRATE_URL_ENV = "ASAT_AUDIT_MIGRATE_URL"
APP_ROLE_ENV = "ASAT_AUDIT_APP_ROLE"


class _Unavailable(Exception):
    """Not configured, or the database cannot be reached: exit 2."""


def main(
    argv: Sequence[str] | None = None,
    env: Mapping[str, str] | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    args = _parser().parse_args(argv)
    environ = os.environ if env is None else env
    stdout = sys.stdout if out is None else out
    stderr = sys.stderr if err is None else err
    try:
        if args.command == "verify":
            return _verify(_url(args.database_url, environ, DATABASE_URL_ENV), args.json, stdout)
        if args.command == "show":
            return _show(_url(args.database_url, environ, DATABASE_URL_ENV), args.last, args.json, stdout)
        return _migrate(args, environ, stdout, stderr)
    except _Unavailable as exc:
        if getattr(args, "json", False):
            _print_json({"ok": False, "error": str(exc)}, stdout)
        print(f"audit {args.command}: {exc}", file=stderr)
        return EXIT_UNAVAILABLE


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m asat_audit", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    verify = commands.add_parser("verify", help="walk the hash chain and report the first broken link")
    verify.add_argument("--json", action="store_true", help="print the report as JSON")
    verify.add_argument("--database-url", help=f"default: ${DATABASE_URL_ENV}")
    show = commands.add_parser("show", help="print the last N rows, oldest first")
    show.add_argument("--last", type=int, default=10, metavar="N", help="how many rows (default 10)")
    show.add_argument("--json", action="store_true", help="print the rows as JSON")
    show.add_argument("--database-url", help=f"default: ${DATABASE_URL_ENV}")
    migrate = commands.add_parser("migrate", help="create or upgrade schema research (as the owner role)")
    migrate.add_argument("--database-url", help=f"the owner role's URL; default: ${MIGRATE_URL_ENV}")
    migrate.add_argument(
        "--app-role",
        help=f"role to grant SELECT and INSERT; default: ${APP_ROLE_ENV}, else the user of ${DATABASE_URL_ENV}",
    )
    return parser


def _url(given: str | None, env: Mapping[str, str], name: str) -> str:
    url = given or env.get(name, "")
    if not url:
        raise _Unavailable(f"no database URL: set {name} (e.g. postgresql://asat_app@127.0.0.1:5432/asat)")
    return url


def _open_log(url: str) -> PostgresAuditLog:
    try:
        return PostgresAuditLog(url)
    except AuditStartupError as exc:
        raise _Unavailable(str(exc)) from exc


def _verify(url: str, as_json: bool, out: TextIO) -> int:
    with _open_log(url) as log:
        try:
            report = log.verify()
        except AuditReadError as exc:
            raise _Unavailable(str(exc)) from exc
    if as_json:
        _print_json(_report_json(report), out)
    elif report.broken is None:
        print(
            f"audit chain valid: {report.checked} rows, last id {report.last_id}, last hash {report.last_hash}",
            file=out,
        )
    else:
        print(
            f"audit chain BROKEN at row {report.broken.id} ({report.broken.kind}): {report.broken.detail}. "
            f"{report.checked} rows before it are intact (last intact id {report.last_id}).",
            file=out,
        )
    return EXIT_OK if report.ok else EXIT_BROKEN


def _show(url: str, last: int, as_json: bool, out: TextIO) -> int:
    if last < 0:
        raise _Unavailable(f"--last must be 0 or more, got {last}")
    with _open_log(url) as log:
        try:
            entries = log.last(last)
        except AuditReadError as exc:
            raise _Unavailable(str(exc)) from exc
    if as_json:
        _print_json([_entry_json(e) for e in entries], out)
        return EXIT_OK
    for entry in entries:
        record = entry.record
        question = record.question if len(record.question) <= 80 else record.question[:77] + "..."
        print(
            f"#{entry.id} {entry.recorded_at.isoformat()} {record.decision} request={record.request_id} "
            f"year={record.income_year} as_of={record.as_of}"
            f"{f' as_known_on={record.as_known_on}' if record.as_known_on is not None else ''} "
            f"by={record.provider}/{record.model} "
            f"citations={len(record.citations)} hash={entry.hash[:12]}\n    {question}",
            file=out,
        )
    return EXIT_OK


def _migrate(args: argparse.Namespace, env: Mapping[str, str], out: TextIO, err: TextIO) -> int:
    url = _url(args.database_url, env, MIGRATE_URL_ENV)
    app_role = args.app_role or env.get(APP_ROLE_ENV) or _user_of(env.get(DATABASE_URL_ENV, ""))
    if not app_role:
        raise _Unavailable(f"no app role to grant: pass --app-role, or set {APP_ROLE_ENV} or {DATABASE_URL_ENV}")
    try:
        report = migrate_database(url, app_role)
    except psycopg.OperationalError as exc:
        raise _Unavailable(f"cannot connect as the owner role: {str(exc).strip()}") from exc
    except (MigrationError, psycopg.Error) as exc:
        print(f"audit migrate: {str(exc).strip()}", file=err)
        return EXIT_BROKEN
    names = ", ".join(f"{m.version:04d}_{m.name}" for m in report.applied) or "nothing new"
    print(f"schema research at version {report.version} (applied: {names}); {app_role} may SELECT, INSERT", file=out)
    return EXIT_OK


def _user_of(url: str) -> str:
    if not url:
        return ""
    try:
        return str(conninfo_to_dict(url).get("user") or "")
    except psycopg.ProgrammingError:
        return ""


def _report_json(report: ChainReport) -> dict[str, JSONValue]:
    broken: JSONValue = None
    if report.broken is not None:
        broken = {"id": report.broken.id, "kind": str(report.broken.kind), "detail": report.broken.detail}
    return {
        "ok": report.ok,
        "checked": report.checked,
        "last_id": report.last_id,
        "last_hash": report.last_hash,
        "broken": broken,
    }


def _entry_json(entry: AuditEntry) -> dict[str, JSONValue]:
    document = record_document(entry.id, entry.recorded_at, entry.record)
    return {**document, "prev_hash": entry.prev_hash, "hash": entry.hash}


def _print_json(value: JSONValue, out: TextIO) -> None:
    print(json.dumps(value, ensure_ascii=False, sort_keys=True), file=out)
