"""What `make up` starts, in which order, with which settings: pure values and rules, no I/O.

The orchestrator (``scripts/stack.py``) reads the environment once into ``StackSettings``, asks
``stack_steps`` for the steps and ``start_order`` for their order, and gives each process the
environment ``service_env`` builds. Everything here is a plain function of its arguments.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORTS = {"verifier": 8710, "ingest": 8720, "research": 8730, "web": 8740, "extraction": 8750}
DEFAULT_PG_PORT = 55432
DEFAULT_HEALTH_TIMEOUT_S = 300.0
DEFAULT_STOP_TIMEOUT_S = 15.0
DEFAULT_CHECKPOINT_EVERY_ROWS = 100
DEFAULT_CHECKPOINT_EVERY_SECONDS = 300.0
DEFAULT_SETTLE_S = 3.0  # a background process that is still running this long after its start is up
DATABASE_NAME = "asat"
OWNER_ROLE = "asat_owner"
APP_ROLE = "asat_app"
# The audit log's signed checkpoints (docs/audit.md): the signing key goes to the checkpointer
# alone; every other process gets the checkpoint file and the public key, which check them.
SIGNING_KEY_ENV = "ASAT_AUDIT_SIGNING_KEY_FILE"
CHECKPOINT_FILE_ENV = "ASAT_AUDIT_CHECKPOINT_FILE"
PUBLIC_KEY_ENV = "ASAT_AUDIT_PUBLIC_KEY_FILE"
# The service-to-service token (asat_corpus.service_token): made once into <var>/secrets/service-token
# (mode 0600) and given to every process; the internal services refuse a request without it.
SERVICE_TOKEN_ENV = "ASAT_SERVICE_TOKEN"
MIN_SERVICE_TOKEN_CHARS = 32


class StackConfigError(ValueError):
    """A setting is missing or malformed; the message names the variable and what to set."""


class StepKind(StrEnum):
    POSTGRES = "postgres"  # the database (embedded, or the server named by ASAT_DATABASE_URL)
    MIGRATE = "migrate"  # the audit and extraction schemas, as the owner role (granting the app role)
    INDEX = "index"  # a running ingest whose index is neither ready nor being built is restarted (to rebuild)
    KEYS = "keys"  # the audit signing key pair, made once when the key is missing
    SERVICE = "service"  # a long-running HTTP service with GET /healthz
    BACKGROUND = "background"  # a long-running process without HTTP: up when still running after it settled


@dataclass(frozen=True)
class ServiceSpec:
    """A long-running service: ``python -m <argv>``, importable as ``module``, healthy at ``url``."""

    name: str
    module: str
    argv: tuple[str, ...]
    host: str
    port: int
    health_path: str = "/healthz"
    # Up once it serves, while the index is still being built (its /healthz: 503 "building"):
    # ingest, which builds it in the background, and research, which refuses questions meanwhile.
    serves_while_building: bool = False

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def health_url(self) -> str:
        return self.base_url + self.health_path


@dataclass(frozen=True)
class BackgroundSpec:
    """A long-running process with no health endpoint: ``python -m <argv>``, importable as
    ``module``. It counts as up when it is still running ``settle_s`` seconds after its start and
    the log of that run shows none of ``failure_marks``. ``holds_signing_key``: the one process
    given ``ASAT_AUDIT_SIGNING_KEY_FILE``."""

    name: str
    module: str
    argv: tuple[str, ...]
    settle_s: float = DEFAULT_SETTLE_S
    failure_marks: tuple[str, ...] = ("Traceback (most recent call last)",)
    holds_signing_key: bool = False


@dataclass(frozen=True)
class Step:
    name: str
    kind: StepKind
    depends_on: tuple[str, ...] = ()
    service: ServiceSpec | None = None
    background: BackgroundSpec | None = None


@dataclass(frozen=True)
class StackSettings:
    repo_root: Path
    var_dir: Path
    host: str
    ports: Mapping[str, int]
    pg_port: int
    external_database_url: str | None
    external_migrate_url: str | None
    health_timeout_s: float
    stop_timeout_s: float
    checkpoint_every_rows: int = DEFAULT_CHECKPOINT_EVERY_ROWS
    checkpoint_every_seconds: float = DEFAULT_CHECKPOINT_EVERY_SECONDS

    @property
    def log_dir(self) -> Path:
        return self.var_dir / "log"

    @property
    def run_dir(self) -> Path:
        return self.var_dir / "run"

    @property
    def postgres_dir(self) -> Path:
        return self.var_dir / "postgres"

    @property
    def embedded_postgres(self) -> bool:
        return self.external_database_url is None

    @property
    def audit_signing_key_file(self) -> Path:
        """The checkpoints' Ed25519 signing key (mode 0600), read by the checkpointer only."""
        return self.var_dir / "keys" / "audit-signing.pem"

    @property
    def audit_public_key_file(self) -> Path:
        """Its public half, written beside it by ``asat_audit keygen``."""
        key = self.audit_signing_key_file
        return key.with_name(key.name + ".pub")

    @property
    def audit_checkpoint_file(self) -> Path:
        """The signed checkpoints, one JSON line each, outside the database."""
        return self.var_dir / "audit" / "checkpoints.jsonl"

    @property
    def service_token_file(self) -> Path:
        """The service token every service requires (mode 0600), made by the first `make up`."""
        return self.var_dir / "secrets" / "service-token"

    def log_file(self, name: str) -> Path:
        return self.log_dir / f"{name}.log"

    def pid_file(self, name: str) -> Path:
        return self.run_dir / f"{name}.pid"


def _port(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit() or not 0 < int(raw) < 65536:
        raise StackConfigError(f"{name}={raw!r} is not a TCP port (1-65535)")
    return int(raw)


def _seconds(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError as exc:
        raise StackConfigError(f"{name}={raw!r} is not a number of seconds") from exc
    if not math.isfinite(value):
        raise StackConfigError(f"{name}={raw!r} is not a number of seconds")
    if value <= 0:
        raise StackConfigError(f"{name}={raw!r} must be more than 0 seconds")
    return value


def _count(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    if not (raw.isascii() and raw.isdigit()) or int(raw) < 1:
        raise StackConfigError(f"{name}={raw!r} is not a whole number of 1 or more")
    return int(raw)


def settings_from_env(env: Mapping[str, str], repo_root: Path) -> StackSettings:
    """Read the stack's settings. ``ASAT_VAR_DIR`` (default ``<repo>/var``) holds logs, pids,
    the embedded database, the index and the caches; ports come from ``ASAT_<SERVICE>_PORT``
    and ``ASAT_EMBEDDED_PG_PORT``. ``ASAT_DATABASE_URL`` selects an external Postgres, which
    then needs ``ASAT_AUDIT_MIGRATE_URL`` (the owner role) for migrations. The checkpointer signs
    every ``ASAT_AUDIT_CHECKPOINT_EVERY_ROWS`` rows and ``ASAT_AUDIT_CHECKPOINT_EVERY_SECONDS``."""
    raw_var = env.get("ASAT_VAR_DIR", "").strip()
    var_dir = Path(raw_var) if raw_var else repo_root / "var"
    if not var_dir.is_absolute():
        var_dir = repo_root / var_dir
    ports = {name: _port(env, f"ASAT_{name.upper()}_PORT", port) for name, port in DEFAULT_PORTS.items()}
    pg_port = _port(env, "ASAT_EMBEDDED_PG_PORT", DEFAULT_PG_PORT)
    database_url = env.get("ASAT_DATABASE_URL", "").strip() or None
    migrate_url = env.get("ASAT_AUDIT_MIGRATE_URL", "").strip() or None
    if database_url is not None and migrate_url is None:
        raise StackConfigError(
            "ASAT_DATABASE_URL is set (use that Postgres server) but ASAT_AUDIT_MIGRATE_URL is not: set it to the "
            "audit schema owner's URL (e.g. postgresql://asat_owner@127.0.0.1:5432/asat) so migrations can run, "
            "or unset ASAT_DATABASE_URL to use the embedded Postgres under var/postgres"
        )
    used = [("ASAT_EMBEDDED_PG_PORT", pg_port)] if database_url is None else []
    used += [(f"ASAT_{name.upper()}_PORT", port) for name, port in ports.items()]
    seen: dict[int, str] = {}
    for name, port in used:
        if port in seen:
            raise StackConfigError(f"{name} and {seen[port]} are both {port}: give each service its own port")
        seen[port] = name
    return StackSettings(
        repo_root=repo_root,
        var_dir=var_dir,
        host=env.get("ASAT_STACK_HOST", "").strip() or DEFAULT_HOST,
        ports=ports,
        pg_port=pg_port,
        external_database_url=database_url,
        external_migrate_url=migrate_url,
        health_timeout_s=_seconds(env, "ASAT_STACK_HEALTH_TIMEOUT", DEFAULT_HEALTH_TIMEOUT_S),
        stop_timeout_s=_seconds(env, "ASAT_STACK_STOP_TIMEOUT", DEFAULT_STOP_TIMEOUT_S),
        checkpoint_every_rows=_count(env, "ASAT_AUDIT_CHECKPOINT_EVERY_ROWS", DEFAULT_CHECKPOINT_EVERY_ROWS),
        checkpoint_every_seconds=_seconds(env, "ASAT_AUDIT_CHECKPOINT_EVERY_SECONDS", DEFAULT_CHECKPOINT_EVERY_SECONDS),
    )


def _number(value: float) -> str:
    """A number as a command-line argument, exactly: ``300`` for 300.0, ``0.5`` for 0.5."""
    return str(int(value)) if value.is_integer() else repr(value)


def checkpointer_argv(settings: StackSettings) -> tuple[str, ...]:
    """``python -m`` arguments of the audit checkpointer (the key and files come in its environment)."""
    return (
        "asat_audit",
        "checkpointer",
        "--every-rows",
        str(settings.checkpoint_every_rows),
        "--every-seconds",
        _number(settings.checkpoint_every_seconds),
    )


def stack_steps(settings: StackSettings) -> tuple[Step, ...]:
    """Every step of `make up` with what it needs first (``start_order`` sorts them)."""
    host, ports = settings.host, settings.ports

    def service(name: str, module: str, *argv: str, serves_while_building: bool = False) -> ServiceSpec:
        return ServiceSpec(
            name=name,
            module=module,
            argv=(module, *argv),
            host=host,
            port=ports[name],
            serves_while_building=serves_while_building,
        )

    checkpointer = BackgroundSpec(
        name="checkpointer",
        module="asat_audit",
        argv=checkpointer_argv(settings),
        # What `python -m asat_audit checkpointer` prints when it gives up (it then exits).
        failure_marks=("Traceback (most recent call last)", "audit checkpointer: "),
        holds_signing_key=True,
    )
    return (
        Step("postgres", StepKind.POSTGRES),
        Step("migrate", StepKind.MIGRATE, ("postgres",)),
        Step("keys", StepKind.KEYS, ("migrate",)),
        # Signs the audit log's new rows into <var>/audit/checkpoints.jsonl; the only key holder.
        Step("checkpointer", StepKind.BACKGROUND, ("migrate", "keys"), background=checkpointer),
        Step("verifier", StepKind.SERVICE, (), service("verifier", "asat_verifier")),
        Step("index", StepKind.INDEX),
        # Builds the index in the background when it is missing or stale, serving meanwhile: `up`
        # does not wait for the build (the web page, `make status` and its log show the progress).
        Step(
            "ingest",
            StepKind.SERVICE,
            ("index",),
            service("ingest", "asat_ingest", "serve", "--build-if-needed", serves_while_building=True),
        ),
        Step(
            "research",
            StepKind.SERVICE,
            # keys: research checks the checkpoints with the public key, which must exist when it starts.
            ("migrate", "keys", "verifier", "ingest"),
            service("research", "asat_research", "serve", serves_while_building=True),
        ),
        Step("web", StepKind.SERVICE, ("research",), service("web", "asat_web")),
        # Extraction keeps each practice's documents in its own schema, made by the migrate step;
        # it serves as the app role (ASAT_DATABASE_URL), which row-level security binds.
        Step("extraction", StepKind.SERVICE, ("migrate",), service("extraction", "asat_extraction", "serve")),
    )


def start_order(steps: Sequence[Step]) -> tuple[Step, ...]:
    """Dependencies first; among steps whose dependencies are met, the declared order.
    Raises ``StackConfigError`` on an unknown dependency or a cycle."""
    by_name = {step.name: step for step in steps}
    for step in steps:
        missing = [d for d in step.depends_on if d not in by_name]
        if missing:
            raise StackConfigError(f"step {step.name!r} depends on unknown step(s) {', '.join(missing)}")
    done: list[Step] = []
    placed: set[str] = set()
    while len(done) < len(steps):
        ready = [s for s in steps if s.name not in placed and all(d in placed for d in s.depends_on)]
        if not ready:
            stuck = sorted(s.name for s in steps if s.name not in placed)
            raise StackConfigError(f"steps depend on each other in a cycle: {', '.join(stuck)}")
        done.append(ready[0])
        placed.add(ready[0].name)
    return tuple(done)


def stop_order(steps: Sequence[Step]) -> tuple[Step, ...]:
    """The reverse of ``start_order``: dependants stop before what they depend on."""
    return tuple(reversed(start_order(steps)))


def service_env(
    settings: StackSettings, base: Mapping[str, str], database_url: str | None, service_token: str | None = None
) -> dict[str, str]:
    """The environment every stack process gets: ``base`` (so ``ASAT_INDEX_ACTS``,
    ``ASAT_INDEX_RULINGS``, ``ASAT_EMBEDDER``, ``ASAT_GENERATION_*`` ... pass through), the
    stack's hosts, ports and URLs, the directories (under the var dir; the vector cache in the
    user's cache directory) unless set in ``base``, the audit checkpoint file and public key, and
    ``ASAT_SERVICE_TOKEN`` (the stack's ``service_token``, replacing any in ``base``).
    Never the audit signing key, even when ``base`` has it: ``process_env`` gives that to the
    checkpointer alone."""
    env = dict(base)
    env.pop(SIGNING_KEY_ENV, None)
    env[CHECKPOINT_FILE_ENV] = str(settings.audit_checkpoint_file)
    env[PUBLIC_KEY_ENV] = str(settings.audit_public_key_file)
    var = settings.var_dir
    user_cache = Path(base.get("XDG_CACHE_HOME") or Path(base.get("HOME") or Path.home()) / ".cache")
    for name, default in (
        ("ASAT_INDEX_DIR", var / "index"),
        # Vectors live in the user's cache, shared by every checkout: a second clone embeds nothing again.
        ("ASAT_VECTOR_CACHE_DIR", user_cache / "asat" / "vectors"),
        ("ASAT_CACHE_DIR", var / "cache"),
    ):
        if not env.get(name, "").strip():
            env[name] = str(default)
    for name, port in settings.ports.items():
        key = name.upper()
        env[f"ASAT_{key}_HOST"] = settings.host
        env[f"ASAT_{key}_PORT"] = str(port)
        env[f"ASAT_{key}_URL"] = f"http://{settings.host}:{port}"
    if database_url is not None:
        env["ASAT_DATABASE_URL"] = database_url
    if service_token is not None:
        env[SERVICE_TOKEN_ENV] = service_token
    # The services' own Python output goes straight to their log files.
    env["PYTHONUNBUFFERED"] = "1"
    return env


def process_env(
    settings: StackSettings,
    step: Step | None,
    base: Mapping[str, str],
    database_url: str | None,
    service_token: str | None = None,
) -> dict[str, str]:
    """The environment of the process ``step`` runs (``None``: a one-shot command): ``service_env``,
    plus ``ASAT_AUDIT_SIGNING_KEY_FILE`` for the step whose process holds the signing key."""
    env = service_env(settings, base, database_url, service_token)
    if step is not None and step.background is not None and step.background.holds_signing_key:
        env[SIGNING_KEY_ENV] = str(settings.audit_signing_key_file)
    return env


def service_token_in_file(path: Path, text: str, mode: int) -> str:
    """The token kept in ``path`` (``text``, its content; ``mode``, its permission bits). Raises
    ``StackConfigError`` saying what to do when others may read it or it is not a token."""
    if mode & 0o077:
        raise StackConfigError(
            f"service token: {path} may be read by others (mode {mode & 0o777:o}): run chmod 600 {path}"
        )
    token = text.strip()
    if len(token) < MIN_SERVICE_TOKEN_CHARS or any(c.isspace() for c in token):
        raise StackConfigError(
            f"service token: {path} does not hold a token of at least {MIN_SERVICE_TOKEN_CHARS} characters: remove "
            "it and run `make down && make up` (which makes a new one and restarts every service with it)"
        )
    return token


class KeyAction(StrEnum):
    KEEP = "keep"  # the key pair is there: use it
    MAKE = "make"  # no key yet: `asat_audit keygen`


def signing_key_action(
    settings: StackSettings, key_mode: int | None, public_key_exists: bool, checkpoints_exist: bool
) -> KeyAction:
    """What the ``keys`` step does, from what is on disk: ``key_mode`` is the signing key's
    permission bits (``None``: no key). Raises ``StackConfigError`` saying what to do when the
    files cannot work: a key others may read (the checkpointer refuses it), a key without its
    public half, or checkpoints without the key that signed them (a new key would not verify
    them, and the checkpointer refuses to sign after checkpoints it cannot verify)."""
    key, public, checkpoints = (
        settings.audit_signing_key_file,
        settings.audit_public_key_file,
        settings.audit_checkpoint_file,
    )
    if key_mode is None:
        if checkpoints_exist:
            raise StackConfigError(
                f"keys: {checkpoints} holds checkpoints but their signing key {key} is missing: restore the key "
                f"(and {public}), or move {checkpoints} away to start a new series (the old checkpoints can then "
                "no longer be checked)"
            )
        return KeyAction.MAKE
    if key_mode & 0o077:
        raise StackConfigError(
            f"keys: the signing key {key} may be read by others (mode {key_mode & 0o777:o}): run chmod 600 {key}"
        )
    if not public_key_exists:
        raise StackConfigError(
            f"keys: the signing key {key} is there but its public key {public} is not: restore it from a copy"
        )
    return KeyAction.KEEP


@dataclass(frozen=True)
class PidRecord:
    """What `make up` wrote for a process it started: its pid, its process group, and its start
    time in clock ticks since boot (``/proc/<pid>/stat`` field 22), so a pid the kernel has since
    given to another process is never signalled."""

    pid: int
    pgid: int
    start_ticks: int


class PidFileError(ValueError):
    pass


def format_pid_file(record: PidRecord) -> str:
    return f"{record.pid}\n{record.pgid}\n{record.start_ticks}\n"


def parse_pid_file(text: str) -> PidRecord:
    """Three lines: pid, process group id, start ticks. Raises ``PidFileError`` otherwise."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if len(lines) != 3 or not all(line.isdigit() for line in lines):
        raise PidFileError(f"expected three lines (pid, process group, start ticks), got {text[:80]!r}")
    pid, pgid, ticks = (int(line) for line in lines)
    if pid <= 0 or pgid <= 0:
        raise PidFileError(f"pid and process group must be positive, got {pid} and {pgid}")
    return PidRecord(pid, pgid, ticks)


@dataclass(frozen=True)
class ProcStat:
    pid: int
    state: str
    ppid: int
    pgid: int
    start_ticks: int
    # CPU used, in clock ticks: user and system, its own and its waited-for children's (fields 14-17)
    cpu_ticks: int = 0

    @property
    def alive(self) -> bool:
        """A zombie (Z) or dead (X) entry has finished running; only its parent's wait remains."""
        return self.state not in ("Z", "X")


def parse_proc_stat(text: str) -> ProcStat:
    """Parse ``/proc/<pid>/stat``. The command name (field 2) is in parentheses and may itself
    contain spaces and parentheses, so fields are counted from the last ``)``."""
    open_at, close_at = text.find("("), text.rfind(")")
    if open_at < 0 or close_at < open_at:
        raise ValueError(f"not a /proc/<pid>/stat line: {text[:80]!r}")
    rest = text[close_at + 1 :].split()
    if len(rest) < 20:
        raise ValueError(f"/proc/<pid>/stat has too few fields: {text[:80]!r}")
    # rest[0] is field 3 (state); field n is rest[n - 3].
    return ProcStat(
        pid=int(text[:open_at]),
        state=rest[0],
        ppid=int(rest[1]),
        pgid=int(rest[2]),
        start_ticks=int(rest[19]),
        cpu_ticks=sum(int(field) for field in rest[11:15]),
    )


def is_same_process(record: PidRecord, table: Mapping[int, ProcStat]) -> bool:
    """The recorded process is still running (same pid, same start time, not a zombie)."""
    stat = table.get(record.pid)
    return stat is not None and stat.alive and stat.start_ticks == record.start_ticks


def descendants(root: int, table: Mapping[int, ProcStat]) -> frozenset[int]:
    """Every live process below ``root`` in the parent tree (not ``root`` itself)."""
    children: dict[int, list[int]] = {}
    for stat in table.values():
        children.setdefault(stat.ppid, []).append(stat.pid)
    found: set[int] = set()
    todo = list(children.get(root, ()))
    while todo:
        pid = todo.pop()
        if pid in found or pid == root:
            continue
        found.add(pid)
        todo.extend(children.get(pid, ()))
    return frozenset(pid for pid in found if table[pid].alive)


def belonging_to(record: PidRecord, table: Mapping[int, ProcStat]) -> frozenset[int]:
    """The live processes that stopping ``record`` must end: the recorded process when it is
    still the same one, the live members of its process group, and the descendants of both
    (a child that moved to its own group is still ours). A process that has left the group and
    whose parent has already ended cannot be traced, which is why services run in the
    foreground of their own group."""
    leader = table.get(record.pgid)
    if record.pgid == record.pid and leader is not None and leader.alive and not is_same_process(record, table):
        # The kernel reuses a pid only once no process has it as its group id any more: the
        # number now names someone else's process, so nothing of ours is left in that group.
        return frozenset()
    group = {pid for pid, stat in table.items() if stat.pgid == record.pgid and stat.alive}
    if is_same_process(record, table):
        group.add(record.pid)
    result = set(group)
    for pid in group:
        result |= descendants(pid, table)
    return frozenset(result)


class Health(StrEnum):
    """What a service's ``GET /healthz`` says."""

    HEALTHY = "healthy"  # 200
    BUILDING = "building"  # 503, status "building": serving while the index is built
    BUILD_FAILED = "build failed"  # 503, the index's last build failed (its "build" says so)
    UNHEALTHY = "unhealthy"  # any other answer
    DOWN = "down"  # no answer


@dataclass(frozen=True)
class HealthReply:
    health: Health
    message: str = ""  # the reply's "message" (the build's progress, or why not healthy)


def read_health(status: int | None, body: bytes) -> HealthReply:
    """A ``/healthz`` reply (``status`` ``None``: no answer) as :class:`Health`. Ingest's and
    research's replies carry ``status`` ("ok", "building", "unavailable"), ``message`` and
    ``build`` (the index's build, ``{"state": "failed", ...}`` when it failed)."""
    if status is None:
        return HealthReply(Health.DOWN)
    try:
        data = json.loads(body)
    except ValueError:
        data = None
    fields = data if isinstance(data, dict) else {}
    message = fields.get("message")
    said = message if isinstance(message, str) else ""
    if status == 200:
        return HealthReply(Health.HEALTHY, said)
    build = fields.get("build")
    if fields.get("status") == "building":
        return HealthReply(Health.BUILDING, said)
    if isinstance(build, dict) and build.get("state") == "failed":
        return HealthReply(Health.BUILD_FAILED, said)
    return HealthReply(Health.UNHEALTHY, said)


def serving(reply: HealthReply, spec: ServiceSpec) -> bool:
    """Whether `up` may stop waiting for ``spec``: healthy, or (for a service that serves while
    the index is built) building or reporting a failed build (which `up` then reports)."""
    if reply.health is Health.HEALTHY:
        return True
    return spec.serves_while_building and reply.health in (Health.BUILDING, Health.BUILD_FAILED)


class HealthOutcome(StrEnum):
    HEALTHY = "healthy"
    EXITED = "exited"  # the process ended before it became healthy
    TIMED_OUT = "timed out"


def wait_until_settled(
    alive: Callable[[], bool],
    clock: Callable[[], float],
    sleep: Callable[[float], None],
    settle_s: float,
    interval_s: float = 0.25,
) -> HealthOutcome:
    """A process without a health check: ``HEALTHY`` once it is still alive ``settle_s`` after
    the call (on ``clock``), ``EXITED`` as soon as it is seen to have ended."""
    deadline = clock() + settle_s
    while True:
        if not alive():
            return HealthOutcome.EXITED
        now = clock()
        if now >= deadline:
            return HealthOutcome.HEALTHY
        sleep(min(interval_s, deadline - now))


def wait_until_healthy(
    probe: Callable[[], bool],
    alive: Callable[[], bool],
    clock: Callable[[], float],
    sleep: Callable[[float], None],
    timeout_s: float,
    interval_s: float = 0.5,
) -> HealthOutcome:
    """Probe until healthy, the process ends, or ``timeout_s`` has passed on ``clock``."""
    deadline = clock() + timeout_s
    while True:
        if probe():
            return HealthOutcome.HEALTHY
        if not alive():
            return HealthOutcome.EXITED
        now = clock()
        if now >= deadline:
            return HealthOutcome.TIMED_OUT
        sleep(min(interval_s, deadline - now))


START_MARK = "\n=== "


def last_run(text: str) -> str:
    """The part of a log written since the last ``=== ... starting`` line the stack wrote."""
    at = text.rfind(START_MARK)
    return text if at < 0 else text[at + 1 :]


def log_tail(text: str, lines: int = 15) -> str:
    """The last ``lines`` lines of a log, each indented, for an error message."""
    kept = [line.rstrip() for line in text.replace("\r", "\n").splitlines() if line.strip()][-lines:]
    return "\n".join(f"    {line}" for line in kept)


def failure_in_log(text: str, marks: Sequence[str]) -> str | None:
    """The first line of ``text`` that holds one of ``marks`` (a traceback, a fatal message), if any;
    the stack's own ``=== ... starting: <command>`` lines are not the process's output."""
    for line in text.splitlines():
        if not line.startswith(START_MARK.strip()) and any(mark in line for mark in marks):
            return line.strip()
    return None
