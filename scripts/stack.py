"""`make up` / `make down` / `make status`: run AsAt on one machine, no Docker.

    .venv/bin/python scripts/stack.py up       # Postgres, migrations, index, services; prints the URL
    .venv/bin/python scripts/stack.py down     # stops exactly what `up` started
    .venv/bin/python scripts/stack.py status   # each service: pid, health, URL, log

Order: postgres -> migrate (the audit log, accounts, extraction; then the first-owner hint, printed
at the end, never asked) -> keys (the audit signing key, when missing) -> checkpointer ->
verifier -> index (a running ingest whose index is neither ready nor being built is restarted) ->
ingest (builds a missing or stale index in the background, serving meanwhile) -> research -> web
-> extraction. `up` does not wait for the build: it prints the URL, and the web page, `status` and
``<var>/log/ingest.log`` show the build's progress; a build that fails while `up` runs stops it.
Each process runs in its own process group; its pid, group and start time go to
``<var>/run/<name>.pid`` and its output to ``<var>/log/<name>.log``. A second `up` finds the
running, healthy services (and the running checkpointer) by pid file and health check and
starts nothing twice.
Settings: see ``stack_plan.settings_from_env`` and docs/running.md.
"""

from __future__ import annotations

import argparse
import base64
import importlib.util
import os
import secrets
import stat
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import stack_postgres
from stack_plan import (
    BackgroundSpec,
    Health,
    HealthOutcome,
    HealthReply,
    KeyAction,
    PidRecord,
    ServiceSpec,
    StackConfigError,
    StackSettings,
    Step,
    StepKind,
    failure_in_log,
    last_run,
    log_tail,
    process_env,
    read_health,
    service_token_in_file,
    serving,
    settings_from_env,
    signing_key_action,
    stack_steps,
    start_order,
    stop_order,
    wait_until_healthy,
    wait_until_settled,
)
from stack_postgres import EmbeddedPostgres, EmbeddedPostgresError
from stack_process import (
    http_health,
    port_in_use,
    read_pid_file,
    read_tail,
    record_for,
    running,
    start_process,
    stop_record,
    write_pid_file,
)

REPO_ROOT = Path(__file__).resolve().parent.parent
EXIT_OK = 0
EXIT_FAILED = 1
EXIT_CONFIG = 2


class StackError(RuntimeError):
    """A step failed; the message names the step, what went wrong and where its log is."""


def say(message: str) -> None:
    print(f"[stack] {message}", flush=True)


def ensure_service_token(path: Path) -> str:
    """The stack's service token, kept in ``path``: made once (``secrets.token_urlsafe(32)``, mode
    0600 in a 0700 directory) when missing, else read and checked (``service_token_in_file``)."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return service_token_in_file(path, path.read_text(encoding="utf-8"), stat.S_IMODE(path.stat().st_mode))
    token = secrets.token_urlsafe(32)
    with os.fdopen(descriptor, "w", encoding="utf-8") as sink:
        sink.write(token + "\n")
    say(f"service token: made {path} (mode 600); every service requires it")
    return token


SECRET_KEY_ENV = "ASAT_SECRET_KEY"
LOOPBACK = ("127.", "localhost", "::1")


def ensure_secret_key(path: Path) -> str:
    """The key sealing the practices' secrets (``ASAT_SECRET_KEY``, ``k1:<base64 of 32 bytes>``),
    kept in ``path``: made once (mode 0600 in a 0700 directory) when missing, else read. Losing it
    loses the saved provider keys (they must be saved again), so it is never replaced here."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _kept_secret_key(path)
    key = "k1:" + base64.b64encode(secrets.token_bytes(32)).decode("ascii")
    with os.fdopen(descriptor, "w", encoding="utf-8") as sink:
        sink.write(key + "\n")
    say(f"secret key: made {path} (mode 600; keep it with the database backups); the web seals provider keys with it")
    return key


def _kept_secret_key(path: Path) -> str:
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        raise StackConfigError(f"secret key: {path} may be read by others (mode {mode:o}): run chmod 600 {path}")
    key = path.read_text(encoding="utf-8").strip()
    if not key or any(c.isspace() for c in key) or ":" not in key:
        raise StackConfigError(
            f"secret key: {path} does not hold an {SECRET_KEY_ENV} value (id:base64): restore it from your "
            "backup (without it the saved provider keys cannot be read)"
        )
    return key


@dataclass
class Stack:
    settings: StackSettings
    base_env: Mapping[str, str]
    python: str = sys.executable
    database_url: str | None = None
    migrate_url: str | None = None
    app_role: str | None = None
    missing: list[str] = field(default_factory=list)
    service_token: str | None = None  # read (or made) by `up` from <var>/secrets/service-token
    secret_key: str | None = None  # ASAT_SECRET_KEY, or read (or made) by `up` from <var>/secrets/secret-key
    owner_hint: str = ""  # `asat_accounts first-owner-hint`'s output, printed at the end of `up`
    building: str = ""  # the index build's progress when `up` ends before it, printed at the end

    @property
    def steps(self) -> tuple[Step, ...]:
        return start_order(stack_steps(self.settings))

    def env(self, step: Step | None = None) -> dict[str, str]:
        """The environment of ``step``'s process (``None``: a one-shot command); only the
        checkpointer's holds the audit signing key."""
        # Every service, extraction included, connects as the app role (ASAT_DATABASE_URL); only
        # the migrate step runs as the owner.
        env = process_env(self.settings, step, self.base_env, self.database_url, self.service_token)
        if step is not None and step.name == "web":
            # The web seals the practices' provider keys (ASAT_SECRET_KEY) and serves plain http on
            # this machine: its session cookie is not marked Secure there (ASAT_WEB_COOKIE_SECURE).
            if self.secret_key is not None:
                env[SECRET_KEY_ENV] = self.secret_key
            if self.settings.host.startswith(LOOPBACK):
                env.setdefault("ASAT_WEB_COOKIE_SECURE", "false")
        return env

    def embedded(self) -> EmbeddedPostgres:
        s = self.settings
        return EmbeddedPostgres(s.postgres_dir, s.host, s.pg_port, s.log_file("postgres"))

    # --- up -------------------------------------------------------------------------------

    def up(self) -> str:
        started = time.monotonic()
        for directory in (self.settings.log_dir, self.settings.run_dir):
            directory.mkdir(parents=True, exist_ok=True)
        self.service_token = ensure_service_token(self.settings.service_token_file)
        given_key = self.base_env.get(SECRET_KEY_ENV, "").strip()
        self.secret_key = given_key or ensure_secret_key(self.settings.var_dir / "secrets" / "secret-key")
        for step in self.steps:
            if step.kind is StepKind.POSTGRES:
                self.postgres_up()
            elif step.kind is StepKind.MIGRATE:
                self.migrate()
            elif step.kind is StepKind.INDEX:
                self.index_up()
            elif step.kind is StepKind.KEYS:
                self.keys_up()
            elif step.background is not None:
                self.background_up(step, step.background)
            elif step.service is not None:
                self.service_up(step, step.service)
        entry = self._entry_point()
        say(f"up in {time.monotonic() - started:.1f}s; logs in {self.settings.log_dir}")
        if self.building:
            say(
                f'the index is being built in the background: {self.building}. Questions are refused ("index '
                'building") until it is done; the workspace shows its progress, and so do `make status` and '
                f"{self.settings.log_file('ingest')}"
            )
        for line in self.owner_hint.splitlines():
            say(line)
        return entry

    @staticmethod
    def health(spec: ServiceSpec) -> HealthReply:
        return read_health(*http_health(spec.health_url))

    def _entry_point(self) -> str:
        specs = {s.name: s.service for s in self.steps if s.service is not None}
        if "web" in self.missing:
            research = specs["research"]
            assert research is not None
            say(
                "WARNING: the web service is MISSING (package asat_web is not installed: services/web does not "
                "exist yet or `make install` has not installed it); the product has no web front end. "
                f"Research answers at {research.base_url}/v1/research"
            )
            return research.base_url
        web = specs["web"]
        assert web is not None
        return web.base_url

    def postgres_up(self) -> None:
        s = self.settings
        if not s.embedded_postgres:
            self.database_url = s.external_database_url
            say("postgres: using the server in ASAT_DATABASE_URL (migrations as ASAT_AUDIT_MIGRATE_URL)")
            return
        pg = self.embedded()
        credentials, account = stack_postgres.initialise(pg)
        if stack_postgres.is_running(pg):
            say(f"postgres: already running (embedded, {pg.data_dir})")
        else:
            if port_in_use(s.host, s.pg_port):
                raise StackError(
                    f"postgres: port {s.host}:{s.pg_port} is taken by another program; "
                    "set ASAT_EMBEDDED_PG_PORT to a free port"
                )
            who = account.pw_name if account is not None else "the current user"
            say(f"postgres: starting the embedded server on {s.host}:{s.pg_port} as {who} (log {pg.log_file})")
            stack_postgres.start(pg, account)
        pid = stack_postgres.postmaster_pid(pg)
        record = record_for(pid) if pid is not None else None
        if record is not None:
            write_pid_file(s.pid_file("postgres"), record)
        urls = stack_postgres.ensure_database(pg, credentials)
        self.database_url = urls.app_url
        self.migrate_url = urls.migrate_url
        self.app_role = urls.app_role

    def migrate(self) -> None:
        s = self.settings
        env = self.env()
        migrate_url = self.migrate_url if s.embedded_postgres else s.external_migrate_url
        if migrate_url is None:
            raise StackError("migrate: no owner-role URL (the postgres step has not run)")
        env["ASAT_AUDIT_MIGRATE_URL"] = migrate_url
        if self.app_role is not None:
            env["ASAT_AUDIT_APP_ROLE"] = self.app_role
        log = s.log_file("migrate")
        done = self._run_logged([self.python, "-m", "asat_audit", "migrate"], env, log)
        if done != 0:
            raise StackError(f"migrate: the audit migration failed (exit {done}):\n{log_tail(read_tail(log))}")
        say(f"migrate: {log_tail(read_tail(log), 1).strip()}")
        # Schema app (accounts: practices, users, sessions, clients), as the same owner and app role
        # (its fallbacks are the ASAT_AUDIT_* variables set above); then whether anyone can sign in.
        done = self._run_logged([self.python, "-m", "asat_accounts", "migrate"], env, log)
        if done != 0:
            raise StackError(f"migrate: the accounts migration failed (exit {done}):\n{log_tail(read_tail(log))}")
        say(f"migrate: {log_tail(read_tail(log), 1).strip()}")
        self.owner_hint = self.first_owner_hint()
        # Schema extraction, as the same owner, granting the same app role (its fallbacks are the
        # ASAT_AUDIT_* variables set above): extraction then serves as the app role.
        if importlib.util.find_spec("asat_extraction") is None:
            raise StackError("migrate: package asat_extraction is not installed; run `make install`")
        done = self._run_logged([self.python, "-m", "asat_extraction", "migrate"], env, log)
        if done != 0:
            raise StackError(f"migrate: the extraction migration failed (exit {done}):\n{log_tail(read_tail(log))}")
        say(f"migrate: {log_tail(read_tail(log), 1).strip()}")

    def first_owner_hint(self) -> str:
        """What ``python -m asat_accounts first-owner-hint`` prints: while no one can sign in, the
        command that creates the first owner (printed, never asked: `make up` needs no input)."""
        try:
            done = subprocess.run(
                [self.python, "-m", "asat_accounts", "first-owner-hint"],
                env=self.env(),
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            return (
                f"accounts: could not check for a first owner ({exc}); run `python -m asat_accounts first-owner-hint`"
            )
        if done.returncode != 0:
            return f"accounts: could not check for a first owner: {(done.stderr or done.stdout).strip()}"
        return done.stdout.strip()

    def keys_up(self) -> None:
        """Make the audit signing key pair when the key is missing (``asat_audit keygen``: mode
        0600, the public key beside it as ``.pub``); keep it otherwise."""
        s = self.settings
        key, public, checkpoints = s.audit_signing_key_file, s.audit_public_key_file, s.audit_checkpoint_file
        checkpoints.parent.mkdir(parents=True, exist_ok=True)
        try:
            key_mode: int | None = stat.S_IMODE(key.stat().st_mode)
        except FileNotFoundError:
            key_mode = None
        has_checkpoints = checkpoints.is_file() and checkpoints.stat().st_size > 0
        action = signing_key_action(s, key_mode, public.is_file(), has_checkpoints)
        if action is KeyAction.KEEP:
            say(f"keys: using the existing audit signing key {key} (public key {public})")
            return
        # Only this user may list or enter the key's directory; research reads the .pub as the same user.
        key.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        log = s.log_file("keys")
        argv = [self.python, "-m", "asat_audit", "keygen", "--key", str(key)]
        done = self._run_logged(argv, self.env(), log)
        if done != 0:
            raise StackError(f"keys: asat_audit keygen failed (exit {done}):\n{log_tail(read_tail(log))}")
        say(f"keys: made a new audit signing key {key} (mode 600, for the checkpointer only); public key {public}")

    def index_up(self) -> None:
        """The index belongs to the ingest service, which checks it when it starts and builds it in
        the background when it is missing or stale. A running ingest whose index is ready or being
        built is left alone; one whose index is neither (its build failed, or it does not answer)
        is stopped here, so the ingest step starts it afresh and it builds the index again."""
        ingest = read_pid_file(self.settings.pid_file("ingest"))
        spec = self._spec("ingest")
        if not running(ingest):
            say(
                "index: the ingest service checks it when it starts and, when missing or stale, builds it in the background"
            )
            return
        assert ingest is not None
        reply = self.health(spec)
        if reply.health is Health.HEALTHY:
            say("index: ready (served by the running ingest service)")
            return
        if reply.health is Health.BUILDING:
            say(f"index: being built by the running ingest service (pid {ingest.pid}): {reply.message}")
            return
        # The index directory belongs to one process: restart the server, which builds it again.
        said = reply.message or reply.health.value
        say(
            f"index: ingest (pid {ingest.pid}) is running but its index is not ready ({said}); restarting it to build it again"
        )
        self._stop(spec.name, ingest)

    def background_up(self, step: Step, spec: BackgroundSpec) -> None:
        """Start a process that has no health check (the checkpointer) unless it is running; it is
        up when it is still running ``spec.settle_s`` after its start and its log shows no failure."""
        s = self.settings
        pid_file = s.pid_file(spec.name)
        log = s.log_file(spec.name)
        if importlib.util.find_spec(spec.module) is None:
            raise StackError(f"{spec.name}: package {spec.module} is not installed; run `make install`")
        record = read_pid_file(pid_file)
        if running(record):
            assert record is not None
            say(f"{spec.name}: already running (pid {record.pid}, log {log})")
            return
        pid_file.unlink(missing_ok=True)
        record = start_process([self.python, "-m", *spec.argv], self.env(step), s.repo_root, log)
        write_pid_file(pid_file, record)
        say(
            f"{spec.name}: started (pid {record.pid}, log {log}); checking it is still running after {spec.settle_s:g}s"
        )
        outcome = wait_until_settled(
            alive=lambda: running(record), clock=time.monotonic, sleep=time.sleep, settle_s=spec.settle_s
        )
        detail = last_run(read_tail(log))
        if outcome is HealthOutcome.EXITED:
            pid_file.unlink(missing_ok=True)
            raise StackError(f"{spec.name}: exited just after it started; its log {log} ends:\n{log_tail(detail)}")
        failure = failure_in_log(detail, spec.failure_marks)
        if failure is not None:
            raise StackError(
                f"{spec.name}: still running (pid {record.pid}) but its log says {failure!r}; {log} ends:\n"
                f"{log_tail(detail)}"
            )
        say(f"{spec.name}: running")

    def service_up(self, step: Step, spec: ServiceSpec) -> None:
        s = self.settings
        pid_file = s.pid_file(spec.name)
        log = s.log_file(spec.name)
        if importlib.util.find_spec(spec.module) is None:
            if spec.name == "web":
                self.missing.append(spec.name)
                say(f"{spec.name}: MISSING (package {spec.module} is not installed); not started")
                return
            raise StackError(f"{spec.name}: package {spec.module} is not installed; run `make install`")
        record = read_pid_file(pid_file)
        if running(record):
            assert record is not None
            reply = self.health(spec)
            if reply.health is Health.HEALTHY:
                say(f"{spec.name}: already running and healthy (pid {record.pid}, {spec.base_url})")
                return
            if reply.health is Health.BUILDING and spec.serves_while_building:
                say(f"{spec.name}: already running (pid {record.pid}, {spec.base_url}); the index is being built")
                self.building = reply.message
                return
            say(f"{spec.name}: running (pid {record.pid}) but not healthy yet; waiting")
        else:
            pid_file.unlink(missing_ok=True)
            if port_in_use(spec.host, spec.port):
                raise StackError(
                    f"{spec.name}: port {spec.host}:{spec.port} is taken by a process this stack did not start; "
                    f"stop it or set ASAT_{spec.name.upper()}_PORT to a free port"
                )
            record = start_process([self.python, "-m", *spec.argv], self.env(step), s.repo_root, log)
            write_pid_file(pid_file, record)
            say(f"{spec.name}: started (pid {record.pid}, log {log}); waiting for {spec.health_url}")
        last = [HealthReply(Health.DOWN)]

        def probe() -> bool:
            last[0] = self.health(spec)
            return serving(last[0], spec) and not self._build_failed_elsewhere(spec, last[0])

        outcome = wait_until_healthy(
            probe=probe,
            alive=lambda: running(record),
            clock=time.monotonic,
            sleep=time.sleep,
            timeout_s=s.health_timeout_s,
        )
        if outcome is HealthOutcome.HEALTHY:
            self._serving(spec, last[0])
            return
        detail = last_run(read_tail(log))
        if outcome is HealthOutcome.EXITED:
            pid_file.unlink(missing_ok=True)
            raise StackError(f"{spec.name}: exited before it became healthy; its log {log} ends:\n{log_tail(detail)}")
        raise StackError(
            f"{spec.name}: {spec.health_url} not healthy after {s.health_timeout_s:.0f}s "
            f"(ASAT_STACK_HEALTH_TIMEOUT); it is still running (pid {record.pid}); its log {log} ends:\n"
            f"{log_tail(detail)}"
        )

    def _build_failed_elsewhere(self, spec: ServiceSpec, reply: HealthReply) -> bool:
        """Research's word that the build failed may be up to two seconds old (it asks ingest no
        oftener): only ingest, which runs the build, says so for certain. True while ``reply``
        says the build failed but ingest no longer does (a new build runs): wait on."""
        if reply.health is not Health.BUILD_FAILED or spec.name == "ingest":
            return False
        return self.health(self._spec("ingest")).health is not Health.BUILD_FAILED

    def _serving(self, spec: ServiceSpec, reply: HealthReply) -> None:
        """Say how ``spec`` came up; a build that failed while `up` ran stops `up`, naming it."""
        if reply.health is Health.BUILD_FAILED:
            log = self.settings.log_file("ingest")
            raise StackError(
                f"index: the build FAILED: {reply.message}. The services are running but no question can be answered; "
                f"the traceback is in {log}:\n{log_tail(last_run(read_tail(log)))}\n"
                "fix what it says, then `make up` again (it restarts ingest, which builds the index again)"
            )
        if reply.health is Health.BUILDING:
            self.building = reply.message
            say(f"{spec.name}: serving; the index is being built ({reply.message})")
            return
        if spec.serves_while_building:
            self.building = ""  # healthy: the index is ready now
        say(f"{spec.name}: healthy")

    def _spec(self, name: str) -> ServiceSpec:
        for step in self.steps:
            if step.name == name and step.service is not None:
                return step.service
        raise KeyError(name)

    def _run_logged(self, argv: Sequence[str], env: Mapping[str, str], log: Path) -> int:
        """Run a one-shot command in the foreground, output appended to ``log``."""
        log.parent.mkdir(parents=True, exist_ok=True)
        with log.open("ab") as sink:
            sink.write(f"\n=== {time.strftime('%Y-%m-%d %H:%M:%S')} {' '.join(argv[1:])}\n".encode())
            sink.flush()
            process = subprocess.Popen(
                list(argv),
                cwd=self.settings.repo_root,
                env=dict(env),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
            )
            assert process.stdout is not None
            while chunk := os.read(process.stdout.fileno(), 4096):
                sink.write(chunk)
                sink.flush()
            return process.wait()

    # --- down -----------------------------------------------------------------------------

    def down(self) -> bool:
        """Stop every service this stack started, dependants first. True when nothing is left."""
        clean = True
        recorded = [p.stem for p in self.settings.run_dir.glob("*.pid")] if self.settings.run_dir.is_dir() else []
        if not recorded:
            say(f"nothing recorded as running in {self.settings.run_dir}")
        for step in stop_order(stack_steps(self.settings)):
            if step.kind is StepKind.POSTGRES:
                clean = self.postgres_down() and clean
            elif step.kind in (StepKind.SERVICE, StepKind.BACKGROUND):
                record = read_pid_file(self.settings.pid_file(step.name))
                if record is None:
                    continue
                clean = self._stop(step.name, record) and clean
        return clean

    def _stop(self, name: str, record: PidRecord) -> bool:
        pid_file = self.settings.pid_file(name)
        was_running = running(record)
        left = stop_record(record, self.settings.stop_timeout_s)
        if left:
            say(f"{name}: could NOT stop pid(s) {', '.join(map(str, sorted(left)))}; kill them by hand")
            return False
        pid_file.unlink(missing_ok=True)
        say(f"{name}: {'stopped' if was_running else 'was not running'} (pid {record.pid})")
        return True

    def postgres_down(self) -> bool:
        pid_file = self.settings.pid_file("postgres")
        if not self.settings.embedded_postgres:
            return True
        pg = self.embedded()
        record = read_pid_file(pid_file)
        if not (pg.data_dir / "PG_VERSION").is_file():
            pid_file.unlink(missing_ok=True)
            return True
        if stack_postgres.is_running(pg):
            if stack_postgres.stop(pg, self.settings.stop_timeout_s):
                say("postgres: stopped (pg_ctl stop)")
            else:
                say("postgres: pg_ctl stop failed; stopping its processes")
        if record is not None:
            left = stop_record(record, self.settings.stop_timeout_s)
            if left:
                say(f"postgres: could NOT stop pid(s) {', '.join(map(str, sorted(left)))}")
                return False
        pid_file.unlink(missing_ok=True)
        return True

    # --- status ---------------------------------------------------------------------------

    def status(self) -> bool:
        """Print one line per step that runs a process, then the index's build while it runs or
        when it failed; True when every one is running and healthy (the checkpointer, which has no
        health check: running): not while the index is being built."""
        all_ok = True
        rows: list[tuple[str, str, str, str, str]] = []
        index: HealthReply | None = None  # ingest's reply while the index is being built or its build failed
        for step in self.steps:
            if step.kind is StepKind.POSTGRES:
                if not self.settings.embedded_postgres:
                    rows.append(("postgres", "-", "external", "-", "ASAT_DATABASE_URL"))
                    continue
                pg = self.embedded()
                up = stack_postgres.is_running(pg)
                postmaster = stack_postgres.postmaster_pid(pg) if up else None
                all_ok = all_ok and up
                rows.append(
                    (
                        "postgres",
                        str(postmaster or "-"),
                        "running" if up else "stopped",
                        f"{self.settings.host}:{self.settings.pg_port}",
                        str(pg.log_file),
                    )
                )
            elif step.background is not None:
                background = step.background
                record = read_pid_file(self.settings.pid_file(background.name))
                if importlib.util.find_spec(background.module) is None:
                    state = "missing"
                elif running(record):
                    state = "running"
                else:
                    state = "stale pid file" if record is not None else "stopped"
                all_ok = all_ok and state == "running"
                pid = str(record.pid) if record is not None and running(record) else "-"
                rows.append((background.name, pid, state, "-", str(self.settings.log_file(background.name))))
            elif step.service is not None:
                spec = step.service
                record = read_pid_file(self.settings.pid_file(spec.name))
                if importlib.util.find_spec(spec.module) is None:
                    state = "missing"
                elif running(record):
                    reply = self.health(spec)
                    state = "unhealthy" if reply.health is Health.DOWN else reply.health.value
                    if spec.name == "ingest" and reply.health in (Health.BUILDING, Health.BUILD_FAILED):
                        index = reply
                else:
                    state = "stale pid file" if record is not None else "stopped"
                all_ok = all_ok and state == "healthy"
                pid = str(record.pid) if record is not None and running(record) else "-"
                rows.append((spec.name, pid, state, spec.base_url, str(self.settings.log_file(spec.name))))
        print(f"{'service':<12} {'pid':>8}  {'state':<15} {'url':<28} log")
        for name, pid, state, url, log in rows:
            print(f"{name:<12} {pid:>8}  {state:<15} {url:<28} {log}")
        if index is not None and index.health is Health.BUILDING:
            print(f"index: {index.message}")
        elif index is not None:
            print(
                f"index: the build FAILED: {index.message}. No question can be answered; the traceback is in "
                f"{self.settings.log_file('ingest')}; fix what it says, then `make up` (it builds the index again)"
            )
        return all_ok


def main(argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scripts/stack.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("up", "down", "status"))
    args = parser.parse_args(argv)
    environ = dict(os.environ if env is None else env)
    try:
        stack = Stack(settings_from_env(environ, REPO_ROOT), environ)
    except StackConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    if args.command == "status":
        return EXIT_OK if stack.status() else EXIT_FAILED
    if args.command == "down":
        return EXIT_OK if stack.down() else EXIT_FAILED
    try:
        url = stack.up()
    except (StackError, EmbeddedPostgresError, StackConfigError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        print("make up stopped there; what it already started is still running: `make down` stops it", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        print("\ninterrupted; what was already started is still running: `make down` stops it", file=sys.stderr)
        return EXIT_FAILED
    print(f"AsAt is up: {url}", flush=True)
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
