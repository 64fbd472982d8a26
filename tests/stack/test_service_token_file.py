"""The stack's service token: made once into ``<var>/secrets/service-token`` (mode 0600, in a 0700
directory), read back on every later `make up`, refused when others may read it or it is not a
token, and given to every process as ``ASAT_SERVICE_TOKEN`` (replacing any in the environment)."""

from __future__ import annotations

from pathlib import Path

import pytest
from stack import Stack, ensure_service_token
from stack_plan import (
    SERVICE_TOKEN_ENV,
    StackConfigError,
    process_env,
    service_env,
    service_token_in_file,
    settings_from_env,
    stack_steps,
)

REPO = Path("/repo")
TOKEN = "t" * 43


def test_the_token_file_lives_in_the_var_dir() -> None:
    settings = settings_from_env({"ASAT_VAR_DIR": "/v"}, REPO)
    assert settings.service_token_file == Path("/v/secrets/service-token")


def test_every_process_gets_the_stacks_token_replacing_one_in_the_environment() -> None:
    settings = settings_from_env({}, REPO)
    env = service_env(settings, {SERVICE_TOKEN_ENV: "from-the-shell"}, None, TOKEN)
    assert env[SERVICE_TOKEN_ENV] == TOKEN
    assert SERVICE_TOKEN_ENV not in service_env(settings, {}, None)  # none given: none added
    for step in stack_steps(settings):
        assert process_env(settings, step, {}, None, TOKEN)[SERVICE_TOKEN_ENV] == TOKEN, step.name
    assert process_env(settings, None, {}, None, TOKEN)[SERVICE_TOKEN_ENV] == TOKEN


def test_a_kept_token_is_read_and_checked() -> None:
    path = Path("/v/secrets/service-token")
    assert service_token_in_file(path, TOKEN + "\n", 0o600) == TOKEN
    with pytest.raises(StackConfigError, match=r"may be read by others \(mode 644\): run chmod 600"):
        service_token_in_file(path, TOKEN, 0o644)
    with pytest.raises(StackConfigError, match="does not hold a token of at least 32 characters: remove it"):
        service_token_in_file(path, "short\n", 0o600)
    with pytest.raises(StackConfigError, match="does not hold a token"):
        service_token_in_file(path, "a" * 20 + " " + "b" * 20, 0o600)


def test_the_first_up_makes_the_token_and_later_ones_keep_it(tmp_path: Path) -> None:
    path = tmp_path / "var" / "secrets" / "service-token"
    made = ensure_service_token(path)
    assert len(made) >= 32 and path.read_text() == made + "\n"
    assert path.stat().st_mode & 0o777 == 0o600
    assert path.parent.stat().st_mode & 0o777 == 0o700
    assert ensure_service_token(path) == made
    other = tmp_path / "other" / "service-token"
    assert ensure_service_token(other) != made  # random per var dir


def test_a_token_others_may_read_stops_up(tmp_path: Path) -> None:
    path = tmp_path / "service-token"
    path.write_text(TOKEN)
    path.chmod(0o644)
    with pytest.raises(StackConfigError, match="chmod 600"):
        ensure_service_token(path)


def test_the_stack_passes_its_token_to_each_process(tmp_path: Path) -> None:
    stack = Stack(settings_from_env({"ASAT_VAR_DIR": str(tmp_path)}, REPO), {SERVICE_TOKEN_ENV: "from-the-shell"})
    stack.service_token = ensure_service_token(stack.settings.service_token_file)
    for step in stack.steps:
        assert stack.env(step)[SERVICE_TOKEN_ENV] == stack.service_token
