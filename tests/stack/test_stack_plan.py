"""The orchestrator's pure rules: settings, step order, environment, pid files, /proc, health waits."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from stack_plan import (
    DEFAULT_PORTS,
    Health,
    HealthOutcome,
    HealthReply,
    KeyAction,
    PidFileError,
    PidRecord,
    ProcStat,
    StackConfigError,
    Step,
    StepKind,
    belonging_to,
    checkpointer_argv,
    descendants,
    failure_in_log,
    format_pid_file,
    is_same_process,
    last_run,
    log_tail,
    parse_pid_file,
    parse_proc_stat,
    process_env,
    read_health,
    service_env,
    serving,
    settings_from_env,
    signing_key_action,
    stack_steps,
    start_order,
    stop_order,
    wait_until_healthy,
    wait_until_settled,
)

REPO = Path("/repo")
SIGNING_KEY = "ASAT_AUDIT_SIGNING_KEY_FILE"


def names(steps: tuple[Step, ...]) -> list[str]:
    return [s.name for s in steps]


# --- settings -------------------------------------------------------------------------------


def test_defaults_put_everything_under_the_repos_var_and_use_the_embedded_postgres() -> None:
    settings = settings_from_env({}, REPO)
    assert settings.var_dir == REPO / "var"
    assert settings.log_file("research") == REPO / "var" / "log" / "research.log"
    assert settings.pid_file("web") == REPO / "var" / "run" / "web.pid"
    assert dict(settings.ports) == DEFAULT_PORTS
    assert settings.embedded_postgres
    assert settings.host == "127.0.0.1"


def test_var_dir_and_ports_come_from_the_environment() -> None:
    env = {"ASAT_VAR_DIR": "tmp/v", "ASAT_RESEARCH_PORT": "9001", "ASAT_EMBEDDED_PG_PORT": "9002"}
    settings = settings_from_env(env, REPO)
    assert settings.var_dir == REPO / "tmp" / "v"  # relative to the repository, not the caller
    assert settings.ports["research"] == 9001
    assert settings.pg_port == 9002
    assert settings_from_env({"ASAT_VAR_DIR": "/abs/v"}, REPO).var_dir == Path("/abs/v")


@pytest.mark.parametrize("value", ["http", "0", "65536", "-1", "80.5"])
def test_a_port_that_is_not_a_port_is_refused_by_name(value: str) -> None:
    with pytest.raises(StackConfigError, match="ASAT_WEB_PORT"):
        settings_from_env({"ASAT_WEB_PORT": value}, REPO)


def test_two_services_on_one_port_are_refused() -> None:
    with pytest.raises(StackConfigError, match="ASAT_WEB_PORT and ASAT_VERIFIER_PORT are both 8710"):
        settings_from_env({"ASAT_WEB_PORT": "8710"}, REPO)
    with pytest.raises(StackConfigError, match="ASAT_EMBEDDED_PG_PORT"):
        settings_from_env({"ASAT_INGEST_PORT": "55432"}, REPO)


def test_an_external_database_needs_the_owner_url_for_migrations() -> None:
    with pytest.raises(StackConfigError, match="ASAT_AUDIT_MIGRATE_URL"):
        settings_from_env({"ASAT_DATABASE_URL": "postgresql://app@h/db"}, REPO)
    settings = settings_from_env(
        {"ASAT_DATABASE_URL": "postgresql://app@h/db", "ASAT_AUDIT_MIGRATE_URL": "postgresql://owner@h/db"}, REPO
    )
    assert not settings.embedded_postgres
    # The embedded server's port is then unused, so a service may have it.
    settings_from_env(
        {
            "ASAT_DATABASE_URL": "postgresql://app@h/db",
            "ASAT_AUDIT_MIGRATE_URL": "postgresql://o@h/db",
            "ASAT_WEB_PORT": "55432",
        },
        REPO,
    )


@pytest.mark.parametrize("value", ["soon", "0", "-3", "nan", "inf"])
def test_a_timeout_must_be_a_positive_number(value: str) -> None:
    with pytest.raises(StackConfigError, match="ASAT_STACK_HEALTH_TIMEOUT"):
        settings_from_env({"ASAT_STACK_HEALTH_TIMEOUT": value}, REPO)


def test_the_checkpointer_signs_every_100_rows_and_300_seconds_unless_told_otherwise() -> None:
    default = settings_from_env({}, REPO)
    assert checkpointer_argv(default) == (
        "asat_audit",
        "checkpointer",
        "--every-rows",
        "100",
        "--every-seconds",
        "300",
    )
    env = {"ASAT_AUDIT_CHECKPOINT_EVERY_ROWS": " 7 ", "ASAT_AUDIT_CHECKPOINT_EVERY_SECONDS": "0.25"}
    assert checkpointer_argv(settings_from_env(env, REPO))[2:] == ("--every-rows", "7", "--every-seconds", "0.25")
    steps = {s.name: s for s in stack_steps(settings_from_env(env, REPO))}
    background = steps["checkpointer"].background
    assert background is not None
    assert background.argv == checkpointer_argv(settings_from_env(env, REPO))


@given(st.floats(min_value=1e-6, max_value=1e12, allow_nan=False, allow_infinity=False))
def test_the_checkpoint_interval_reaches_the_command_line_exactly(seconds: float) -> None:
    settings = settings_from_env({"ASAT_AUDIT_CHECKPOINT_EVERY_SECONDS": repr(seconds)}, REPO)
    argv = checkpointer_argv(settings)
    assert float(argv[argv.index("--every-seconds") + 1]) == seconds


@pytest.mark.parametrize("value", ["0", "-1", "ten", "1.5", "1e3", "\u00b2"])
def test_a_checkpoint_row_count_must_be_a_whole_number_of_one_or_more(value: str) -> None:
    with pytest.raises(StackConfigError, match="ASAT_AUDIT_CHECKPOINT_EVERY_ROWS"):
        settings_from_env({"ASAT_AUDIT_CHECKPOINT_EVERY_ROWS": value}, REPO)


@pytest.mark.parametrize("value", ["soon", "0", "-3", "nan", "inf"])
def test_a_checkpoint_interval_must_be_a_positive_number_of_seconds(value: str) -> None:
    with pytest.raises(StackConfigError, match="ASAT_AUDIT_CHECKPOINT_EVERY_SECONDS"):
        settings_from_env({"ASAT_AUDIT_CHECKPOINT_EVERY_SECONDS": value}, REPO)


# --- order ----------------------------------------------------------------------------------


def test_the_stack_starts_in_dependency_order() -> None:
    order = names(start_order(stack_steps(settings_from_env({}, REPO))))
    assert order == [
        "postgres",
        "migrate",
        "keys",
        "checkpointer",
        "verifier",
        "index",
        "ingest",
        "research",
        "web",
        "extraction",
    ]


def test_the_stack_stops_dependants_first() -> None:
    order = names(stop_order(stack_steps(settings_from_env({}, REPO))))
    assert order == [
        "extraction",
        "web",
        "research",
        "ingest",
        "index",
        "verifier",
        "checkpointer",  # before the database it reads
        "keys",
        "migrate",
        "postgres",
    ]


def test_every_dependency_comes_before_its_dependant() -> None:
    steps = start_order(stack_steps(settings_from_env({}, REPO)))
    position = {s.name: i for i, s in enumerate(steps)}
    for step in steps:
        for dependency in step.depends_on:
            assert position[dependency] < position[step.name], (dependency, step.name)


def test_declared_order_does_not_override_dependencies() -> None:
    steps = (Step("c", StepKind.SERVICE, ("b",)), Step("b", StepKind.SERVICE, ("a",)), Step("a", StepKind.INDEX))
    assert names(start_order(steps)) == ["a", "b", "c"]


def test_a_cycle_and_an_unknown_dependency_are_refused() -> None:
    with pytest.raises(StackConfigError, match="cycle: a, b"):
        start_order((Step("a", StepKind.SERVICE, ("b",)), Step("b", StepKind.SERVICE, ("a",))))
    with pytest.raises(StackConfigError, match="unknown step"):
        start_order((Step("a", StepKind.SERVICE, ("nope",)),))


def test_research_waits_for_the_database_the_verifier_and_the_index_server() -> None:
    steps = {s.name: s for s in stack_steps(settings_from_env({}, REPO))}
    assert set(steps["research"].depends_on) == {"migrate", "keys", "verifier", "ingest"}
    assert steps["ingest"].depends_on == ("index",)
    research = steps["research"].service
    assert research is not None
    assert research.argv == ("asat_research", "serve")
    assert research.health_url == "http://127.0.0.1:8730/healthz"


def test_ingest_builds_the_index_in_the_background_and_up_does_not_wait_for_it() -> None:
    steps = {s.name: s for s in stack_steps(settings_from_env({}, REPO))}
    ingest, research, web = (steps[name].service for name in ("ingest", "research", "web"))
    assert ingest is not None and research is not None and web is not None
    assert ingest.argv == ("asat_ingest", "serve", "--build-if-needed")
    assert ingest.serves_while_building and research.serves_while_building and not web.serves_while_building


BUILDING_BODY = (
    b'{"status": "building", "index": "building", "message": "index building, 42% done (...)", '
    b'"build": {"state": "running"}}'
)
FAILED_BODY = (
    b'{"status": "unavailable", "index": "incomplete", "message": "the index build failed: BuildError: x", '
    b'"build": {"state": "failed", "error": "BuildError: x"}}'
)


@pytest.mark.parametrize(
    ("status", "body", "health", "message"),
    [
        (200, b'{"status": "ok", "message": "ready: 12 points"}', Health.HEALTHY, "ready: 12 points"),
        (200, b"", Health.HEALTHY, ""),  # the web's and the verifier's, whatever their body
        (503, BUILDING_BODY, Health.BUILDING, "index building, 42% done (...)"),
        (503, FAILED_BODY, Health.BUILD_FAILED, "the index build failed: BuildError: x"),
        (503, b'{"status": "unavailable", "message": "no index has been built", "build": null}', Health.UNHEALTHY,
         "no index has been built"),
        (503, b"<html>proxy</html>", Health.UNHEALTHY, ""),
        (None, b"", Health.DOWN, ""),
    ],
)  # fmt: skip
def test_a_health_reply_says_healthy_building_build_failed_or_not(
    status: int | None, body: bytes, health: Health, message: str
) -> None:
    assert read_health(status, body) == HealthReply(health, message)


def test_up_waits_for_health_but_not_for_the_build_where_a_service_serves_meanwhile() -> None:
    steps = {s.name: s for s in stack_steps(settings_from_env({}, REPO))}
    ingest, web = steps["ingest"].service, steps["web"].service
    assert ingest is not None and web is not None
    for reply, for_ingest, for_web in (
        (HealthReply(Health.HEALTHY), True, True),
        (HealthReply(Health.BUILDING, "42%"), True, False),
        (HealthReply(Health.BUILD_FAILED, "x"), True, False),  # stops the wait: `up` then reports it
        (HealthReply(Health.UNHEALTHY), False, False),
        (HealthReply(Health.DOWN), False, False),
    ):
        assert (serving(reply, ingest), serving(reply, web)) == (for_ingest, for_web), reply


def test_the_checkpointer_is_a_background_process_after_the_migration_and_the_key() -> None:
    steps = {s.name: s for s in stack_steps(settings_from_env({}, REPO))}
    assert steps["keys"].kind is StepKind.KEYS
    assert steps["keys"].depends_on == ("migrate",)
    checkpointer = steps["checkpointer"]
    assert checkpointer.kind is StepKind.BACKGROUND
    assert set(checkpointer.depends_on) == {"migrate", "keys"}
    assert checkpointer.service is None
    assert checkpointer.background is not None
    assert checkpointer.background.module == "asat_audit"
    assert checkpointer.background.settle_s > 0
    holders = [s.name for s in steps.values() if s.background is not None and s.background.holds_signing_key]
    assert holders == ["checkpointer"]


# --- environment ----------------------------------------------------------------------------


def test_service_env_passes_the_scope_through_and_points_every_service_at_the_others() -> None:
    settings = settings_from_env({"ASAT_VAR_DIR": "/v", "ASAT_INGEST_PORT": "9720"}, REPO)
    base = {
        "ASAT_INDEX_ACTS": "abn1999",
        "ASAT_INDEX_RULINGS": "none",
        "ASAT_EMBEDDER": "hash",
        "PATH": "/bin",
        "HOME": "/home/agent",
    }
    env = service_env(settings, base, "postgresql://asat_app:pw@127.0.0.1:1/asat")
    for key, value in base.items():
        assert env[key] == value
    assert env["ASAT_INGEST_URL"] == "http://127.0.0.1:9720"
    assert env["ASAT_INGEST_PORT"] == "9720"
    assert env["ASAT_RESEARCH_URL"] == "http://127.0.0.1:8730"
    assert env["ASAT_INDEX_DIR"] == "/v/index"
    assert env["ASAT_VECTOR_CACHE_DIR"] == "/home/agent/.cache/asat/vectors"  # shared by every checkout
    xdg = service_env(settings, {"XDG_CACHE_HOME": "/xdg"}, None)
    assert xdg["ASAT_VECTOR_CACHE_DIR"] == "/xdg/asat/vectors"
    assert env["ASAT_CACHE_DIR"] == "/v/cache"
    assert env["ASAT_DATABASE_URL"] == "postgresql://asat_app:pw@127.0.0.1:1/asat"


def test_the_audit_key_and_checkpoints_live_under_the_var_dir() -> None:
    settings = settings_from_env({"ASAT_VAR_DIR": "/v"}, REPO)
    assert settings.audit_signing_key_file == Path("/v/keys/audit-signing.pem")
    assert settings.audit_public_key_file == Path("/v/keys/audit-signing.pem.pub")  # where keygen writes it
    assert settings.audit_checkpoint_file == Path("/v/audit/checkpoints.jsonl")


def test_only_the_checkpointer_is_given_the_signing_key() -> None:
    settings = settings_from_env({"ASAT_VAR_DIR": "/v"}, REPO)
    # Even a key exported in the shell that runs `make up` reaches no other process.
    base = {SIGNING_KEY: "/home/me/other.pem", "ASAT_AUDIT_CHECKPOINT_FILE": "/elsewhere.jsonl", "PATH": "/bin"}
    url = "postgresql://asat_app:pw@127.0.0.1:1/asat"
    envs = {step.name: process_env(settings, step, base, url) for step in stack_steps(settings)}
    envs["(one-shot commands)"] = process_env(settings, None, base, url)
    assert SIGNING_KEY not in service_env(settings, base, url)
    for name in ("research", "web", "ingest", "verifier", "extraction", "(one-shot commands)"):
        assert SIGNING_KEY not in envs[name], name
    assert [name for name, env in envs.items() if SIGNING_KEY in env] == ["checkpointer"]
    checkpointer = envs["checkpointer"]
    assert checkpointer[SIGNING_KEY] == "/v/keys/audit-signing.pem"
    assert checkpointer["ASAT_DATABASE_URL"] == url  # the app role: it reads rows and adds checkpoints
    for name in ("checkpointer", "research"):
        # The checkpointer writes the file research checks, with the public half of its key.
        assert envs[name]["ASAT_AUDIT_CHECKPOINT_FILE"] == "/v/audit/checkpoints.jsonl", name
        assert envs[name]["ASAT_AUDIT_PUBLIC_KEY_FILE"] == "/v/keys/audit-signing.pem.pub", name


def test_service_env_keeps_directories_the_caller_set() -> None:
    settings = settings_from_env({"ASAT_VAR_DIR": "/v"}, REPO)
    env = service_env(settings, {"ASAT_INDEX_DIR": "/elsewhere", "ASAT_CACHE_DIR": "/c"}, None)
    assert env["ASAT_INDEX_DIR"] == "/elsewhere"
    assert env["ASAT_CACHE_DIR"] == "/c"
    assert "ASAT_DATABASE_URL" not in env


# --- the audit signing key -------------------------------------------------------------------


def test_a_missing_key_is_made_and_a_sound_one_kept() -> None:
    settings = settings_from_env({"ASAT_VAR_DIR": "/v"}, REPO)
    assert signing_key_action(settings, None, False, False) is KeyAction.MAKE
    assert signing_key_action(settings, None, True, False) is KeyAction.MAKE  # a stray .pub is replaced
    assert signing_key_action(settings, 0o600, True, True) is KeyAction.KEEP
    assert signing_key_action(settings, 0o400, True, False) is KeyAction.KEEP


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o660, 0o606])
def test_a_key_others_may_read_is_refused_with_the_fix(mode: int) -> None:
    settings = settings_from_env({"ASAT_VAR_DIR": "/v"}, REPO)
    with pytest.raises(StackConfigError, match=re.escape("chmod 600 /v/keys/audit-signing.pem")):
        signing_key_action(settings, mode, True, False)


def test_a_key_without_its_public_half_is_refused() -> None:
    settings = settings_from_env({"ASAT_VAR_DIR": "/v"}, REPO)
    with pytest.raises(StackConfigError, match=re.escape("/v/keys/audit-signing.pem.pub")):
        signing_key_action(settings, 0o600, False, False)


def test_checkpoints_without_the_key_that_signed_them_get_no_new_key() -> None:
    # A new key would not verify them, and the checkpointer refuses to sign after them.
    settings = settings_from_env({"ASAT_VAR_DIR": "/v"}, REPO)
    with pytest.raises(StackConfigError, match=re.escape("/v/audit/checkpoints.jsonl holds checkpoints")):
        signing_key_action(settings, None, True, True)


# --- pid files ------------------------------------------------------------------------------


@given(st.integers(1, 2**22), st.integers(1, 2**22), st.integers(0, 2**40))
def test_a_pid_file_reads_back_as_written(pid: int, pgid: int, ticks: int) -> None:
    record = PidRecord(pid, pgid, ticks)
    assert parse_pid_file(format_pid_file(record)) == record


@pytest.mark.parametrize("text", ["", "123\n", "123\n123\n", "a\nb\nc\n", "1\n2\n3\n4\n", "0\n1\n2\n", "-5\n1\n2\n"])
def test_a_malformed_pid_file_is_refused(text: str) -> None:
    with pytest.raises(PidFileError):
        parse_pid_file(text)


# --- /proc ----------------------------------------------------------------------------------


def stat_line(pid: int, comm: str, state: str, ppid: int, pgid: int, ticks: int) -> str:
    # fields: pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt
    # utime stime cutime cstime priority nice num_threads itrealvalue starttime ...
    return f"{pid} ({comm}) {state} {ppid} {pgid} {pgid} 0 -1 4194304 0 0 0 0 0 0 0 0 20 0 1 0 {ticks} 1000 20 0 0"


def test_proc_stat_reads_a_real_line() -> None:
    line = (
        "4242 (python) S 1 4242 4242 0 -1 4194560 12043 0 3 0 410 32 0 0 20 0 4 0 98765 "
        "1234567 8910 18446744073709551615 1 1 0 0 0 0 0 16781312 2 0 0 0 17 1 0 0 0 0 0"
    )
    assert parse_proc_stat(line) == ProcStat(pid=4242, state="S", ppid=1, pgid=4242, start_ticks=98765, cpu_ticks=442)


@given(
    st.integers(1, 2**22),
    st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\x00\n"), max_size=15),
    st.sampled_from("RSDZTX"),
    st.integers(0, 2**22),
    st.integers(1, 2**22),
    st.integers(0, 2**40),
)
def test_proc_stat_survives_any_command_name(pid: int, comm: str, state: str, ppid: int, pgid: int, ticks: int) -> None:
    # A command name may hold spaces and parentheses, e.g. "(sd-pam)" or "a) S 9 9".
    stat = parse_proc_stat(stat_line(pid, comm, state, ppid, pgid, ticks))
    assert stat == ProcStat(pid, state, ppid, pgid, ticks)


def test_proc_stat_refuses_what_is_not_a_stat_line() -> None:
    with pytest.raises(ValueError):
        parse_proc_stat("no parentheses here")
    with pytest.raises(ValueError):
        parse_proc_stat("12 (x) S 1 2")


def table(*rows: tuple[int, str, int, int, int]) -> dict[int, ProcStat]:
    return {pid: ProcStat(pid, state, ppid, pgid, ticks) for pid, state, ppid, pgid, ticks in rows}


def test_a_reused_pid_is_not_the_recorded_process() -> None:
    record = PidRecord(100, 100, 5000)
    assert is_same_process(record, table((100, "S", 1, 100, 5000)))
    assert not is_same_process(record, table((100, "S", 1, 100, 7000)))  # same pid, later start
    assert not is_same_process(record, table((100, "Z", 1, 100, 5000)))  # finished, not yet reaped
    assert not is_same_process(record, table())


def test_descendants_follow_the_parent_tree_and_skip_zombies() -> None:
    procs = table(
        (10, "S", 1, 10, 1),
        (11, "S", 10, 10, 2),
        (12, "S", 11, 12, 3),  # grandchild that started its own group
        (13, "Z", 10, 10, 4),
        (20, "S", 1, 20, 5),
    )
    assert descendants(10, procs) == {11, 12}
    assert descendants(20, procs) == frozenset()


def test_stopping_a_record_takes_its_group_and_every_descendant() -> None:
    procs = table(
        (10, "S", 1, 10, 100),
        (11, "S", 10, 10, 101),
        (12, "S", 10, 12, 102),  # left the group, still a child
        (13, "S", 12, 12, 103),
        (30, "S", 1, 30, 50),  # someone else's
    )
    assert belonging_to(PidRecord(10, 10, 100), procs) == {10, 11, 12, 13}


def test_a_group_outlives_its_leader() -> None:
    procs = table((11, "S", 1, 10, 101), (30, "S", 1, 30, 50))
    assert belonging_to(PidRecord(10, 10, 100), procs) == {11}


def test_a_reused_leader_pid_means_nothing_of_ours_is_left() -> None:
    procs = table((10, "S", 1, 10, 900), (11, "S", 10, 10, 901))
    assert belonging_to(PidRecord(10, 10, 100), procs) == frozenset()


# --- health waits ---------------------------------------------------------------------------


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def test_health_wait_returns_once_the_probe_passes() -> None:
    clock = FakeClock()
    answers = iter([False, False, True])
    outcome = wait_until_healthy(lambda: next(answers), lambda: True, clock, clock.sleep, timeout_s=10, interval_s=0.5)
    assert outcome is HealthOutcome.HEALTHY
    assert clock.slept == [0.5, 0.5]


def test_health_wait_gives_up_at_the_deadline_not_before() -> None:
    clock = FakeClock()
    outcome = wait_until_healthy(lambda: False, lambda: True, clock, clock.sleep, timeout_s=2.2, interval_s=0.5)
    assert outcome is HealthOutcome.TIMED_OUT
    assert clock.now == pytest.approx(1002.2)
    assert clock.slept[-1] == pytest.approx(0.2)  # the last sleep is cut to the deadline


def test_health_wait_stops_when_the_process_ends() -> None:
    clock = FakeClock()
    lives = iter([True, True, False])
    outcome = wait_until_healthy(lambda: False, lambda: next(lives), clock, clock.sleep, timeout_s=60)
    assert outcome is HealthOutcome.EXITED
    assert clock.now < 1060


def test_a_healthy_answer_counts_even_if_the_process_is_then_gone() -> None:
    clock = FakeClock()
    assert wait_until_healthy(lambda: True, lambda: False, clock, clock.sleep, 5) is HealthOutcome.HEALTHY


def test_a_background_process_is_up_once_it_has_kept_running_for_the_settle_time() -> None:
    clock = FakeClock()
    outcome = wait_until_settled(lambda: True, clock, clock.sleep, settle_s=3, interval_s=0.5)
    assert outcome is HealthOutcome.HEALTHY
    assert clock.now == pytest.approx(1003)


def test_a_background_process_that_ends_while_settling_has_exited() -> None:
    clock = FakeClock()
    lives = iter([True, True, False])
    outcome = wait_until_settled(lambda: next(lives), clock, clock.sleep, settle_s=3, interval_s=0.5)
    assert outcome is HealthOutcome.EXITED
    assert clock.now == pytest.approx(1001)


def test_a_background_process_must_still_run_at_the_end_of_the_settle_time() -> None:
    clock = FakeClock()
    outcome = wait_until_settled(lambda: clock.now < 1003, clock, clock.sleep, settle_s=3, interval_s=0.5)
    assert outcome is HealthOutcome.EXITED


def test_a_failure_in_the_log_is_found_but_not_in_the_stacks_own_start_line() -> None:
    marks = ("Traceback (most recent call last)", "audit checkpointer: ")
    start = "=== 2026-01-02 10:00:00 starting: python -m asat_audit checkpointer: --every-rows 1\n"
    assert failure_in_log(start + "checkpoint signed: rows 1..3\n", marks) is None
    log = start + "audit checkpointer: cannot read the signing key /v/keys/k.pem: No such file\n"
    assert failure_in_log(log, marks) == "audit checkpointer: cannot read the signing key /v/keys/k.pem: No such file"
    assert failure_in_log("x\nTraceback (most recent call last):\n  File ...\n", marks) == (
        "Traceback (most recent call last):"
    )


def test_log_tail_keeps_the_last_lines_and_splits_progress_lines() -> None:
    text = "one\ntwo\n\nthree\r[build] 1/3\r[build] 3/3\nfour\n"
    assert log_tail(text, 3) == "    [build] 1/3\n    [build] 3/3\n    four"


def test_last_run_is_what_the_latest_start_wrote() -> None:
    log = "\n=== 2026-01-01 starting: a\nold failure\n\n=== 2026-01-02 starting: a\nnew failure\n"
    assert last_run(log) == "=== 2026-01-02 starting: a\nnew failure\n"
    assert last_run("no marks\n") == "no marks\n"


def test_extraction_serves_as_the_app_role_and_only_migrate_gets_the_owner() -> None:
    from stack import Stack

    settings = settings_from_env({"ASAT_VAR_DIR": "/v"}, REPO)
    app_url, owner_url = "postgresql://asat_app:pw@127.0.0.1:1/asat", "postgresql://asat_owner:ow@127.0.0.1:1/asat"
    stack = Stack(settings, {"PATH": "/bin"}, database_url=app_url, migrate_url=owner_url, app_role="asat_app")
    steps = {step.name: step for step in stack.steps}
    assert steps["migrate"].kind is StepKind.MIGRATE and "migrate" in steps["extraction"].depends_on
    for name in ("extraction", "web", "research"):
        env = stack.env(steps[name])
        assert env["ASAT_DATABASE_URL"] == app_url, name
        assert "ASAT_EXTRACTION_DATABASE_URL" not in env, name
        assert not any(owner_url in value for value in env.values()), name
