"""``python -m asat_audit``: verify the log, show the last rows, migrate the schema, and make the
signing key and the signed checkpoints.

``verify`` checks the hash chain and, when a checkpoint file and the public key are given
(``--checkpoints``/``ASAT_AUDIT_CHECKPOINT_FILE``, ``--public-key``/``ASAT_AUDIT_PUBLIC_KEY_FILE``),
every signed checkpoint against the stored rows and the database's copy against the file's: a
rewritten prefix, a truncated tail and a forged row are each reported with the first bad row id.
``keygen`` writes the signing key (``ASAT_AUDIT_SIGNING_KEY_FILE``, mode 0600) and its public
half; ``checkpoint`` signs the rows since the last checkpoint once; ``checkpointer`` keeps doing so
every N rows and every M seconds.

Exit codes: 0 done (log valid); 1 log broken, or migration or checkpoint refused; 2 cannot
connect or not configured (the message says what to set).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

import psycopg
from psycopg.conninfo import conninfo_to_dict

from asat_audit.canonical import JSONValue, record_document
from asat_audit.checkpoint import Checkpoint, CheckpointFormatError, to_json
from asat_audit.checkpoint_file import KeyFileError, load_private_key, write_key_pair
from asat_audit.checkpointer import CheckpointRefused, Schedule, make_checkpoint, run_checkpointer
from asat_audit.integrity_report import integrity_json, integrity_text
from asat_audit.log_check import AnchorFiles, check_log
from asat_audit.migration_runner import MigrationError, migrate_database
from asat_audit.postgres_store import PostgresAuditLog, PostgresAuditStore
from asat_audit.record import AuditEntry
from asat_audit.store import AuditReadError, AuditStartupError, AuditWriteError

EXIT_OK = 0
EXIT_BROKEN = 1
EXIT_UNAVAILABLE = 2

DATABASE_URL_ENV = "ASAT_DATABASE_URL"
MIGRATE_URL_ENV = "ASAT_AUDIT_MIGRATE_URL"
APP_ROLE_ENV = "ASAT_AUDIT_APP_ROLE"
CHECKPOINT_FILE_ENV = "ASAT_AUDIT_CHECKPOINT_FILE"
PUBLIC_KEY_ENV = "ASAT_AUDIT_PUBLIC_KEY_FILE"
SIGNING_KEY_ENV = "ASAT_AUDIT_SIGNING_KEY_FILE"


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
            anchors = _anchor_files(args, environ)
            return _verify(_url(args.database_url, environ, DATABASE_URL_ENV), anchors, args.json, stdout)
        if args.command == "keygen":
            return _keygen(_path(args.key, environ, SIGNING_KEY_ENV), stdout)
        if args.command in ("checkpoint", "checkpointer"):
            return _checkpoint(args, environ, stdout, stderr)
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
    verify.add_argument("--checkpoints", help=f"the checkpoint file; default: ${CHECKPOINT_FILE_ENV}")
    verify.add_argument("--public-key", help=f"the checkpoints' public key (PEM); default: ${PUBLIC_KEY_ENV}")
    keygen = commands.add_parser("keygen", help="write a new signing key (mode 0600) and its public key (.pub)")
    keygen.add_argument("--key", help=f"the private key's path; default: ${SIGNING_KEY_ENV}")
    for name, text in (
        ("checkpoint", "sign the rows since the last checkpoint, once"),
        ("checkpointer", "keep signing: every N rows and every M seconds"),
    ):
        sub = commands.add_parser(name, help=text)
        sub.add_argument("--database-url", help=f"the app role's URL; default: ${DATABASE_URL_ENV}")
        sub.add_argument("--key", help=f"the signing key; default: ${SIGNING_KEY_ENV}")
        sub.add_argument("--checkpoints", help=f"the checkpoint file; default: ${CHECKPOINT_FILE_ENV}")
        sub.add_argument("--json", action="store_true", help="print each checkpoint as JSON")
        if name == "checkpointer":
            sub.add_argument("--every-rows", type=int, default=100, metavar="N", help="default 100")
            sub.add_argument("--every-seconds", type=float, default=300.0, metavar="M", help="default 300")
            sub.add_argument("--poll-seconds", type=float, default=5.0, help="how often to look (default 5)")
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


def _path(given: str | None, env: Mapping[str, str], name: str) -> Path:
    value = given or env.get(name, "")
    if not value:
        raise _Unavailable(f"no path given: pass it or set {name}")
    return Path(value)


def _anchor_files(args: argparse.Namespace, env: Mapping[str, str]) -> AnchorFiles | None:
    """The checkpoint file and public key, when both are configured; one without the other is an error."""
    checkpoints = args.checkpoints or env.get(CHECKPOINT_FILE_ENV, "")
    public_key = args.public_key or env.get(PUBLIC_KEY_ENV, "")
    if bool(checkpoints) != bool(public_key):
        raise _Unavailable(
            f"checking checkpoints needs both the checkpoint file ({CHECKPOINT_FILE_ENV}) and the public key "
            f"({PUBLIC_KEY_ENV}); only one is set"
        )
    return AnchorFiles(Path(checkpoints), Path(public_key)) if checkpoints else None


def _verify(url: str, anchors: AnchorFiles | None, as_json: bool, out: TextIO) -> int:
    with _open_log(url) as log:
        try:
            report = check_log(log, anchors)
        except (KeyFileError, CheckpointFormatError, AuditReadError) as exc:
            raise _Unavailable(str(exc)) from exc
    if as_json:
        _print_json(integrity_json(report), out)
    else:
        print(integrity_text(report), file=out)
    return EXIT_OK if report.ok else EXIT_BROKEN


def _keygen(path: Path, out: TextIO) -> int:
    try:
        public = write_key_pair(path)
    except KeyFileError as exc:
        raise _Unavailable(str(exc)) from exc
    print(f"signing key written to {path} (mode 600; give it to the checkpointer only); public key: {public}", file=out)
    return EXIT_OK


def _checkpoint(args: argparse.Namespace, env: Mapping[str, str], out: TextIO, err: TextIO) -> int:
    url = _url(args.database_url, env, DATABASE_URL_ENV)
    file = _path(args.checkpoints, env, CHECKPOINT_FILE_ENV)
    try:
        key = load_private_key(_path(args.key, env, SIGNING_KEY_ENV))
        store = PostgresAuditStore(url)
    except (KeyFileError, AuditStartupError) as exc:
        raise _Unavailable(str(exc)) from exc

    def said(checkpoint: Checkpoint) -> None:
        if args.json:
            _print_json(json.loads(to_json(checkpoint)), out)
        else:
            print(f"checkpoint signed: rows {checkpoint.first_id}..{checkpoint.last_id}", file=out, flush=True)

    try:
        with store:
            if args.command == "checkpoint":
                made = make_checkpoint(store, file, key, datetime.now(UTC))
                if made is None:
                    print("no new rows since the last checkpoint", file=out)
                else:
                    said(made)
                return EXIT_OK
            schedule = Schedule(args.every_rows, args.every_seconds)
            run_checkpointer(
                store,
                file,
                key,
                schedule,
                lambda: datetime.now(UTC),
                time.sleep,
                lambda: True,
                args.poll_seconds,
                said,
                lambda exc: print(f"audit checkpointer: {exc}; trying again at the next poll", file=err, flush=True),
            )
            return EXIT_OK
    except CheckpointRefused as exc:
        print(f"audit {args.command}: {exc}", file=err)
        return EXIT_BROKEN
    except (AuditReadError, AuditWriteError, CheckpointFormatError) as exc:
        raise _Unavailable(str(exc)) from exc


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


def _entry_json(entry: AuditEntry) -> dict[str, JSONValue]:
    document = record_document(entry.id, entry.recorded_at, entry.record)
    return {**document, "prev_hash": entry.prev_hash, "hash": entry.hash}


def _print_json(value: JSONValue, out: TextIO) -> None:
    print(json.dumps(value, ensure_ascii=False, sort_keys=True), file=out)
